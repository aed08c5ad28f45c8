import type { TFunction } from 'i18next';
import { en } from './en';

/** A role's name in the page's language; an unknown role (a newer server) shows as it is. */
export function roleLabel(t: TFunction, role: string): string {
  return role in en.roles ? t(`roles.${role as keyof typeof en.roles}`) : role;
}
