// Every user-visible string of the UI goes through t(key, params). Strings
// live in one dictionary file per room (web/src/i18n/<room>.ts), each giving
// the same keys in English and Simplified Chinese; all.test.ts fails on a key
// that one language lacks. English is registered at start (./all.ts); the
// Simplified Chinese strings (./zh-CN/*.ts) are one lazy chunk, loaded the
// first time the locale becomes zh-CN (t() shows English until it arrives,
// then the listeners re-render). Keys are namespaced by room: "player.step",
// "embed.loading", "whatif.fork".

/** The languages the UI speaks. */
export type Locale = 'en' | 'zh-CN';

export const LOCALES: readonly Locale[] = ['en', 'zh-CN'];

/** A room's strings in some locales (a room registers each locale once). */
export type Dictionary = Partial<Record<Locale, Record<string, string>>>;

const tables: Record<Locale, Map<string, string>> = { en: new Map(), 'zh-CN': new Map() };
let current: Locale = 'en';
const listeners = new Set<(l: Locale) => void>();

/** register adds a room's strings; a key registered twice is a bug. */
export function register(room: string, dict: Dictionary): void {
  for (const locale of LOCALES) {
    for (const [k, v] of Object.entries(dict[locale] ?? {})) {
      if (tables[locale].has(k)) throw new Error(`i18n: key ${k} registered twice (room ${room})`);
      tables[locale].set(k, v);
    }
  }
}

/** missingKeys lists "locale:key" for every key some locale lacks (tests). */
export function missingKeys(): string[] {
  const all = new Set<string>();
  for (const l of LOCALES) for (const k of tables[l].keys()) all.add(k);
  const out: string[] = [];
  for (const l of LOCALES) for (const k of all) if (!tables[l].has(k)) out.push(`${l}:${k}`);
  return out.sort();
}

/** t returns the string for key in the current locale, with {name} placeholders filled. An unknown key is returned as itself, so it shows up on screen and in tests. */
export function t(key: string, params?: Record<string, string | number>): string {
  const s = tables[current].get(key) ?? tables.en.get(key) ?? key;
  if (!params) return s;
  return s.replace(/\{(\w+)\}/g, (m, name: string) => (name in params ? String(params[name]) : m));
}

/** has reports whether key is registered (in English). */
export function has(key: string): boolean {
  return tables.en.has(key);
}

export function getLocale(): Locale {
  return current;
}

/**
 * translated returns the translation of a scenario's prose (its
 * description, a note's title and text) for the current language: the
 * entry of translations whose tag is the locale's, or its language's
 * (zh for zh-CN), or else another variant of that language (the first tag
 * in order: zh-Hans, zh-TW), which reads better than another language;
 * otherwise own, the text as written.
 */
export function translated<T>(own: T, translations: Record<string, T> | undefined, locale: Locale = current): T {
  if (!translations) return own;
  const lang = locale.split('-')[0]!;
  const found = translations[locale] ?? translations[lang];
  if (found) return found;
  const variant = Object.keys(translations)
    .sort()
    .find((k) => k.startsWith(`${lang}-`));
  return variant ? translations[variant]! : own;
}

/** parseLocale maps a language tag ("zh", "zh-Hans-CN", "en-US") to a Locale, or null. */
export function parseLocale(tag: string | null | undefined): Locale | null {
  if (!tag) return null;
  const lower = tag.toLowerCase();
  if (lower.startsWith('zh')) return 'zh-CN';
  if (lower.startsWith('en')) return 'en';
  return null;
}

/** Loads the Simplified Chinese dictionaries once; resolves when registered. */
let zhLoad: Promise<void> | null = null;
export function loadZh(): Promise<void> {
  zhLoad ??= import('./zh-CN/all').then(() => undefined);
  return zhLoad;
}

/** setLocale switches the language and tells every listener (which re-render).
 *  The first switch to zh-CN also loads its strings and tells the listeners
 *  again once they are there. */
/**
 * setLocale switches the UI language. The app marks its page with it (the
 * html element's lang); an embedded player passes markPage false, so the
 * documentation page around it keeps its own.
 */
export function setLocale(l: Locale, markPage = true): void {
  if (l === current) return;
  current = l;
  if (markPage && typeof document !== 'undefined') document.documentElement.lang = l;
  for (const fn of listeners) fn(l);
  if (l === 'zh-CN' && zhLoad === null) {
    void loadZh().then(
      () => {
        if (current === 'zh-CN') for (const fn of listeners) fn('zh-CN');
      },
      (e: unknown) => console.error('i18n: cannot load the zh-CN strings', e),
    );
  }
}

/** onLocaleChange calls fn after every switch; returns the unsubscribe function. */
export function onLocaleChange(fn: (l: Locale) => void): () => void {
  listeners.add(fn);
  return () => listeners.delete(fn);
}
