import { Switch as AriaSwitch, type SwitchProps as AriaSwitchProps } from 'react-aria-components';

export interface SwitchProps extends Omit<AriaSwitchProps, 'children' | 'className'> {
  label: string;
}

export function Switch({ label, ...props }: SwitchProps) {
  return (
    <AriaSwitch {...props} className="tw-switch">
      <span className="tw-switch__track" aria-hidden="true">
        <span className="tw-switch__thumb" />
      </span>
      {label}
    </AriaSwitch>
  );
}
