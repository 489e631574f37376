/** Spec shell §9 / chart-data §5: dates are displayed MM/DD/YYYY and no year before 1900 is accepted. */
export const DATE_DISPLAY_FORMAT = 'MM/DD/YYYY';
/** Wire and storage format of calendar dates (no time, no zone). */
export const ISO_DATE_FORMAT = 'YYYY-MM-DD';
export const MIN_YEAR = 1900;
export const MIN_DATE_ISO = '1900-01-01';
