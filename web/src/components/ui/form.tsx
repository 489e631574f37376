import { Form as AriaForm, type FormProps as AriaFormProps } from 'react-aria-components';

/**
 * Field errors (from the shared zod schema or the server's 400 `fieldErrors`) go into
 * `validationErrors`, keyed by the field's `name`; each field shows its own under the input.
 */
export function Form({ className, ...props }: AriaFormProps) {
  return <AriaForm {...props} validationBehavior="aria" className={['tw-form', className].filter(Boolean).join(' ')} />;
}
