import i18next from 'i18next';
import { initReactI18next } from 'react-i18next';
import { ar } from './ar';
import { en } from './en';

/** The languages shipped, each named in itself. */
export const LANGUAGES = [
  { code: 'en', name: 'English' },
  { code: 'ar', name: 'العربية' },
] as const;
export type Language = (typeof LANGUAGES)[number]['code'];

const STORAGE_KEY = 'custody.language';

function isLanguage(s: string | null): s is Language {
  return LANGUAGES.some((l) => l.code === s);
}

function initialLanguage(): Language {
  const saved = window.localStorage.getItem(STORAGE_KEY);
  if (isLanguage(saved)) return saved;
  return navigator.language.toLowerCase().startsWith('ar') ? 'ar' : 'en';
}

/** <html lang dir>: Arabic lays the whole page out right to left (the CSS uses logical properties). */
function applyToDocument(lng: string): void {
  const html = document.documentElement;
  html.lang = lng;
  html.dir = i18next.dir(lng);
  document.title = i18next.t('app.name');
}

void i18next.use(initReactI18next).init({
  resources: { en: { translation: en }, ar: { translation: ar } },
  lng: initialLanguage(),
  fallbackLng: 'en',
  supportedLngs: LANGUAGES.map((l) => l.code),
  interpolation: { escapeValue: false }, // React escapes
  initAsync: false,
});
applyToDocument(i18next.language);
i18next.on('languageChanged', (lng) => {
  applyToDocument(lng);
  window.localStorage.setItem(STORAGE_KEY, lng);
});

export async function setLanguage(lng: Language): Promise<void> {
  await i18next.changeLanguage(lng);
}

/** Numbers in the page's language (Arabic-Indic digits in Arabic). */
export function formatCount(n: number, lng: string): string {
  return new Intl.NumberFormat(lng).format(n);
}

export { i18next };
