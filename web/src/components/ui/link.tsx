import { Link as AriaLink, type LinkProps as AriaLinkProps } from 'react-aria-components';

export interface LinkProps extends Omit<AriaLinkProps, 'className'> {
  /** Renders the link with button styling (for navigation actions such as "Edit"). */
  variant?: 'text' | 'primary' | 'secondary';
  className?: string;
}

/** In-app links take router paths from the paths module; the router provider turns them into hash URLs. */
export function Link({ variant = 'text', className, ...props }: LinkProps) {
  const base = variant === 'text' ? 'tw-link' : `tw-button tw-button--${variant} tw-button--md`;
  return <AriaLink {...props} className={[base, className].filter(Boolean).join(' ')} />;
}
