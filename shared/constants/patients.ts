/** Patient form limits, spec chart-data §5. */
export const PATIENT_LIMITS = {
  id: 35,
  firstName: 35,
  lastName: 35,
  middleName: 35,
  /** Not fixed by the spec; chosen names follow the legal name limits. */
  chosenFirstName: 35,
  chosenLastName: 35,
  email: 80,
  addressLine1: 35,
  addressLine2: 35,
  city: 35,
  state: 10,
  zip: 10,
  primaryPhoneNumber: 35,
  /** Not fixed by the spec: bounds so no request can store an unbounded value. */
  freeText: 200,
  phones: 10,
} as const;

export const PATIENT_GENDERS = ['male', 'female', 'other'] as const;
export const PHONE_TYPES = ['mobile', 'home', 'work'] as const;
export const PATIENT_STATUSES = ['active', 'DELETED'] as const;
export const MEMBERSHIP_STATUSES = ['active', 'archived'] as const;

/** Default patient page limit and lookup batch, spec shell §9. */
export const PATIENT_PAGE_SIZE = 100;
/** Upper bound a client may ask for in one page (not in the spec; keeps a response bounded). */
export const PATIENT_MAX_PAGE_SIZE = 500;
/** Patient search debounce, spec shell §5 and chart-data §9. */
export const PATIENT_SEARCH_DEBOUNCE_MS = 500;
/** Fuzzy phone matching applies to queries of at least this many digits, spec shell §5. */
export const PHONE_FUZZY_MIN_DIGITS = 3;
/** Phone display default country code, spec shell §9. */
export const PHONE_COUNTRY_CODE = '+1';
export const PATIENT_SEARCH_MAX_QUERY = 100;
