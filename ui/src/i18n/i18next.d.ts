import 'i18next';
import type { en } from './en';

// Keys passed to t() are checked against the English strings.
declare module 'i18next' {
  interface CustomTypeOptions {
    defaultNS: 'translation';
    resources: { translation: typeof en };
  }
}
