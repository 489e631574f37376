import { Checkbox as AriaCheckbox, type CheckboxProps as AriaCheckboxProps } from 'react-aria-components';

export interface CheckboxProps extends Omit<AriaCheckboxProps, 'children' | 'className'> {
  label: string;
}

export function Checkbox({ label, ...props }: CheckboxProps) {
  return (
    <AriaCheckbox {...props} className="tw-checkbox">
      <span className="tw-checkbox__box" aria-hidden="true">
        <svg viewBox="0 0 16 16" width="12" height="12">
          <path d="M3 8.5l3 3 7-7" fill="none" stroke="currentColor" strokeWidth="2.2" strokeLinecap="round" strokeLinejoin="round" />
        </svg>
      </span>
      {label}
    </AriaCheckbox>
  );
}
