import { Button as AriaButton, type ButtonProps as AriaButtonProps } from 'react-aria-components';

export type ButtonVariant = 'primary' | 'secondary' | 'danger' | 'quiet';

export interface ButtonProps extends AriaButtonProps {
  variant?: ButtonVariant;
  size?: 'md' | 'sm';
}

export function Button({ variant = 'secondary', size = 'md', className, ...props }: ButtonProps) {
  return <AriaButton {...props} className={['tw-button', `tw-button--${variant}`, `tw-button--${size}`, className].filter(Boolean).join(' ')} />;
}
