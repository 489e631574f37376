import type { ReactNode } from 'react';
import { FieldError, Input, Label, Text, TextField as AriaTextField, type TextFieldProps as AriaTextFieldProps } from 'react-aria-components';

export interface TextFieldProps extends Omit<AriaTextFieldProps, 'children' | 'className'> {
  label: string;
  description?: ReactNode;
  placeholder?: string;
  className?: string;
  inputMode?: 'text' | 'numeric' | 'tel' | 'email';
}

/** Label + Input + Description + FieldError: server errors arrive through the parent Form's validationErrors. */
export function TextField({ label, description, placeholder, className, inputMode, ...props }: TextFieldProps) {
  return (
    <AriaTextField {...props} className={['tw-field', className].filter(Boolean).join(' ')}>
      <Label className="tw-field__label">
        {label}
        {props.isRequired ? (
          <span className="tw-field__required" aria-hidden="true">
            {' '}
            *
          </span>
        ) : null}
      </Label>
      <Input className="tw-field__input" placeholder={placeholder} inputMode={inputMode} />
      {description ? (
        <Text slot="description" className="tw-field__description">
          {description}
        </Text>
      ) : null}
      <FieldError className="tw-field__error" />
    </AriaTextField>
  );
}
