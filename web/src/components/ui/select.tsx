import {
  Button,
  FieldError,
  Label,
  ListBox,
  ListBoxItem,
  Popover,
  Select as AriaSelect,
  SelectValue,
  type Key,
  type SelectProps as AriaSelectProps,
} from 'react-aria-components';
import { ChevronDownIcon } from './icons.js';

export interface SelectOption {
  id: string;
  label: string;
}

export interface SelectProps extends Omit<AriaSelectProps<SelectOption>, 'children' | 'className' | 'value' | 'onChange'> {
  label: string;
  options: readonly SelectOption[];
  value: string | null;
  onChange: (value: string | null) => void;
  className?: string;
}

export function Select({ label, options, value, onChange, className, ...props }: SelectProps) {
  return (
    <AriaSelect
      {...props}
      value={value}
      onChange={(key: Key | null) => onChange(key === null ? null : String(key))}
      className={['tw-field', className].filter(Boolean).join(' ')}
    >
      <Label className="tw-field__label">
        {label}
        {props.isRequired ? (
          <span className="tw-field__required" aria-hidden="true">
            {' '}
            *
          </span>
        ) : null}
      </Label>
      <Button className="tw-field__input tw-select__button">
        <SelectValue className="tw-select__value" />
        <ChevronDownIcon className="tw-select__chevron" />
      </Button>
      <FieldError className="tw-field__error" />
      <Popover className="tw-popover">
        <ListBox className="tw-listbox" items={options}>
          {(option) => (
            <ListBoxItem className="tw-listbox__item" id={option.id} textValue={option.label}>
              {option.label}
            </ListBoxItem>
          )}
        </ListBox>
      </Popover>
    </AriaSelect>
  );
}
