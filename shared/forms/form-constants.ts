/** The forms texts and IntakeQ's partner id, without schemas: the webhook's chunk loads only these. */
export const FORM_MESSAGES = {
  selectForm: 'Please select a form',
  sendFailed: 'There was an error sending the form',
  resendFailed: 'There was an error resending the form.',
  mappingsFailed: 'Error saving form mappings',
  responsesFailed: 'Error saving form responses',
  mapFailed: 'There was an error saving mappings or health history',
  notConfigured: 'IntakeQ is not set up for this practice.',
  emailRequired: 'An email address is required to send the form by email.',
  phoneRequired: 'A phone number is required to send the form by SMS.',
  formNotFound: 'Form not found',
  intakeNotFound: 'No form was sent with this intake id.',
  notSubmitted: 'The form has not been submitted yet.',
  titleOverrideRequired: 'A title is required for a health history question.',
  unknownQuestion: 'The form has no question with this id.',
  fileOutsidePatient: "The file must be in the patient's folder.",
  formMismatch: 'The form does not match the note',
  alreadySubmitted: 'The form was already submitted.',
} as const;

export const INTAKEQ_PARTNER_ID = 'intakeq';
