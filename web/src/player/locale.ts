// The language switch: which locale to start in (a `lang` URL parameter, then
// the remembered choice, then the browser's), the static strings of
// index.html (data-i18n: text, data-i18n-aria: aria-label), and the picker.
import '../i18n/all';
import { getLocale, type Locale, onLocaleChange, parseLocale, setLocale, t } from '../i18n';

const KEY = 'rolloutlab-lang';

/** The locale to start with. */
export function initialLocale(search: string, stored: string | null, browser: string | undefined): Locale {
  return parseLocale(new URLSearchParams(search).get('lang')) ?? parseLocale(stored) ?? parseLocale(browser) ?? 'en';
}

/** Translates the elements under root that carry data-i18n / data-i18n-aria. */
export function applyStatic(root: ParentNode = document): void {
  for (const el of root.querySelectorAll<HTMLElement>('[data-i18n]')) el.textContent = t(el.dataset.i18n!);
  for (const el of root.querySelectorAll<HTMLElement>('[data-i18n-aria]')) el.setAttribute('aria-label', t(el.dataset.i18nAria!));
}

/** Sets the start locale, translates the page and wires #lang-picker. */
export function wireLocale(): void {
  let stored: string | null = null;
  try {
    stored = localStorage.getItem(KEY);
  } catch {
    /* storage blocked */
  }
  const l = initialLocale(location.search, stored, navigator.language);
  setLocale(l);
  document.documentElement.lang = l;
  applyStatic();
  onLocaleChange(() => applyStatic());
  const pick = document.getElementById('lang-picker') as HTMLSelectElement | null;
  if (!pick) return;
  pick.value = getLocale();
  pick.addEventListener('change', () => {
    const next = parseLocale(pick.value) ?? 'en';
    try {
      localStorage.setItem(KEY, next);
    } catch {
      /* storage blocked */
    }
    setLocale(next);
  });
}
