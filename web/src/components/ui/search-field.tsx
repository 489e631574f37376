import { Button, Input, Label, SearchField as AriaSearchField, type SearchFieldProps as AriaSearchFieldProps } from 'react-aria-components';
import { CloseIcon, SearchIcon } from './icons.js';

export interface SearchFieldProps extends Omit<AriaSearchFieldProps, 'children' | 'className'> {
  label: string;
  placeholder?: string;
  /** Keeps the label for assistive technology only. */
  hideLabel?: boolean;
  className?: string;
}

export function SearchField({ label, placeholder, hideLabel = true, className, ...props }: SearchFieldProps) {
  return (
    <AriaSearchField {...props} className={['tw-search', className].filter(Boolean).join(' ')}>
      <Label className={hideLabel ? 'tw-visually-hidden' : 'tw-field__label'}>{label}</Label>
      <SearchIcon className="tw-search__icon" />
      <Input className="tw-search__input" placeholder={placeholder} />
      <Button className="tw-search__clear" aria-label="Clear search">
        <CloseIcon />
      </Button>
    </AriaSearchField>
  );
}
