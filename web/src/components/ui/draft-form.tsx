import type { ReactNode } from 'react';
import { Button } from './button.js';
import { Form } from './form.js';

interface DraftFormProps {
  /** Field errors keyed by field name; the fields keep what the user typed. */
  errors: Record<string, string>;
  onSave: () => void;
  onCancel: () => void;
  isPending: boolean;
  'aria-label'?: string;
  className?: string;
  actionsClassName?: string;
  children: ReactNode;
}

/** The add-or-edit form above a settings list: its fields, then Save and Cancel. */
export function DraftForm({
  errors,
  onSave,
  onCancel,
  isPending,
  className = 'tw-settings__form',
  actionsClassName = 'tw-settings__actions',
  children,
  ...rest
}: DraftFormProps) {
  return (
    <Form
      validationErrors={errors}
      className={className}
      aria-label={rest['aria-label']}
      onSubmit={(event) => {
        event.preventDefault();
        onSave();
      }}
    >
      {children}
      <div className={actionsClassName}>
        <Button variant="primary" type="submit" isPending={isPending}>
          Save
        </Button>
        <Button variant="quiet" onPress={onCancel}>
          Cancel
        </Button>
      </div>
    </Form>
  );
}
