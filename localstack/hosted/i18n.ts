/**
 * The hosted pages' languages: English, and German as the second locale every project can offer. A project's
 * account-experience config decides which one a visitor sees (`locale_behavior`): `force_default` shows
 * `default_locale` to everyone, `respect_accept_language` picks the best of the browser's `Accept-Language`.
 */
export const LOCALES = ['en', 'de'] as const;
export type Locale = (typeof LOCALES)[number];

export interface LocaleConfig {
  locale_behavior?: unknown;
  default_locale?: unknown;
  enabled_locales?: unknown;
}

const isLocale = (v: unknown): v is Locale => typeof v === 'string' && (LOCALES as readonly string[]).includes(v);

/** The languages of an `Accept-Language` header, best first (q-values honoured, region dropped). */
export function acceptedLanguages(header: string | undefined): string[] {
  if (!header) return [];
  return header
    .split(',')
    .map((part, i) => {
      const [tag = '', ...params] = part.trim().split(';');
      const q = params.map((p) => p.trim()).find((p) => p.startsWith('q='));
      const weight = q ? Number(q.slice(2)) : 1;
      return { tag: tag.trim().toLowerCase().split('-')[0] ?? '', weight: Number.isFinite(weight) ? weight : 0, i };
    })
    .filter((l) => l.tag && l.weight > 0)
    .sort((a, b) => b.weight - a.weight || a.i - b.i)
    .map((l) => l.tag);
}

/** The locale a visitor sees under the project's account-experience config. */
export function pickLocale(config: LocaleConfig, acceptLanguage: string | undefined): Locale {
  const enabled = Array.isArray(config.enabled_locales) ? config.enabled_locales.filter(isLocale) : [];
  const offered: readonly Locale[] = enabled.length ? enabled : LOCALES;
  const fallback: Locale = isLocale(config.default_locale) && offered.includes(config.default_locale) ? config.default_locale : (offered[0] ?? 'en');
  if (config.locale_behavior !== 'respect_accept_language') return fallback;
  for (const tag of acceptedLanguages(acceptLanguage)) if (isLocale(tag) && offered.includes(tag)) return tag;
  return fallback;
}

/** The pages' own words (headings, links, buttons that are not flow nodes). */
const CHROME = {
  en: {
    'title.login': 'Sign in',
    'title.registration': 'Create an account',
    'title.recovery': 'Recover your account',
    'title.verification': 'Verify your email address',
    'title.settings': 'Account settings',
    'title.error': 'Something went wrong',
    'title.consent': 'Authorize access',
    'title.home': 'You are signed in',
    'link.registration': "Don't have an account? Sign up",
    'link.login': 'Already have an account? Sign in',
    'link.recovery': 'Forgot your password?',
    'link.verification': 'Verify your email address',
    'link.settings': 'Account settings',
    'link.logout': 'Sign out',
    'link.back': 'Back to sign in',
    'preview.note': 'Preview: this form does not submit.',
    'consent.intro': '{client} wants to access your account.',
    'consent.scopes': 'It asks for:',
    'consent.remember': 'Remember my decision',
    'consent.allow': 'Allow',
    'consent.deny': 'Deny',
    'title.logout': 'Sign out',
    'logout.intro': 'Do you want to sign out?',
    'logout.client': '{client} asks to sign you out.',
    'logout.yes': 'Yes, sign me out',
    'logout.no': 'No, stay signed in',
    'logout.stayed': 'You are still signed in.',
    'title.device': 'Sign in on a device',
    'device.intro': 'Enter the code shown on your device.',
    'device.code': 'Code',
    'device.submit': 'Continue',
    'consent.signedInAs': 'Signed in as {subject}.',
    'login.continueTo': 'Sign in to continue to {client}.',
    'group.profile': 'Profile',
    'group.password': 'Password',
    'group.oidc': 'Sign in with a provider',
    'group.saml': 'Single sign-on',
    'group.totp': 'Authenticator app',
    'group.webauthn': 'Security key',
    'group.passkey': 'Passkey',
    'group.lookup_secret': 'Backup codes',
    'group.code': 'One-time code',
    'error.unknown': 'The page you asked for could not be shown. Please start again.',
    'home.as': 'Signed in as {email}.',
    'language': 'Language',
  },
  de: {
    'title.login': 'Anmelden',
    'title.registration': 'Konto erstellen',
    'title.recovery': 'Konto wiederherstellen',
    'title.verification': 'E-Mail-Adresse bestätigen',
    'title.settings': 'Kontoeinstellungen',
    'title.error': 'Etwas ist schiefgelaufen',
    'title.consent': 'Zugriff erlauben',
    'title.home': 'Sie sind angemeldet',
    'link.registration': 'Noch kein Konto? Registrieren',
    'link.login': 'Schon ein Konto? Anmelden',
    'link.recovery': 'Passwort vergessen?',
    'link.verification': 'E-Mail-Adresse bestätigen',
    'link.settings': 'Kontoeinstellungen',
    'link.logout': 'Abmelden',
    'link.back': 'Zurück zur Anmeldung',
    'preview.note': 'Vorschau: Dieses Formular wird nicht gesendet.',
    'consent.intro': '{client} möchte auf Ihr Konto zugreifen.',
    'consent.scopes': 'Angefragt wird:',
    'consent.remember': 'Entscheidung merken',
    'consent.allow': 'Erlauben',
    'consent.deny': 'Ablehnen',
    'title.logout': 'Abmelden',
    'logout.intro': 'Möchten Sie sich abmelden?',
    'logout.client': '{client} möchte Sie abmelden.',
    'logout.yes': 'Ja, abmelden',
    'logout.no': 'Nein, angemeldet bleiben',
    'logout.stayed': 'Sie sind weiterhin angemeldet.',
    'title.device': 'Auf einem Gerät anmelden',
    'device.intro': 'Geben Sie den Code ein, den Ihr Gerät anzeigt.',
    'device.code': 'Code',
    'device.submit': 'Weiter',
    'consent.signedInAs': 'Angemeldet als {subject}.',
    'login.continueTo': 'Melden Sie sich an, um mit {client} fortzufahren.',
    'group.profile': 'Profil',
    'group.password': 'Passwort',
    'group.oidc': 'Mit einem Anbieter anmelden',
    'group.saml': 'Single Sign-on',
    'group.totp': 'Authenticator-App',
    'group.webauthn': 'Sicherheitsschlüssel',
    'group.passkey': 'Passkey',
    'group.lookup_secret': 'Backup-Codes',
    'group.code': 'Einmalcode',
    'error.unknown': 'Die angefragte Seite konnte nicht angezeigt werden. Bitte beginnen Sie erneut.',
    'home.as': 'Angemeldet als {email}.',
    'language': 'Sprache',
  },
} as const satisfies Record<Locale, Record<string, string>>;

export type ChromeKey = keyof (typeof CHROME)['en'];

const fill = (template: string, values: Record<string, unknown>) =>
  template.replace(/\{(\w+)\}/g, (whole, name: string) => (values[name] === undefined ? whole : String(values[name])));

/** A page word in `locale`, with `{name}` placeholders filled. */
export const chrome = (locale: Locale, key: ChromeKey, values: Record<string, unknown> = {}) => fill(CHROME[locale][key], values);

/**
 * Kratos' UI messages by id in German, with the message's `context` filled into `{name}`; a message without a
 * translation keeps the text it came with, so nodes of any method render, translated or not.
 */
const MESSAGES_DE: Record<number, string> = {
  1010001: 'Anmelden',
  1010002: 'Mit {provider} anmelden',
  1010014: 'Ein Code wurde an die angegebene Adresse gesendet. Wenn Sie ihn nicht erhalten haben, prüfen Sie die Schreibweise der Adresse und versuchen Sie es erneut.',
  1010015: 'Anmeldecode senden',
  1040001: 'Registrieren',
  1040002: 'Mit {provider} registrieren',
  1040005: 'Ein Code wurde an die angegebene(n) Adresse(n) gesendet. Wenn Sie keine Nachricht erhalten haben, prüfen Sie die Schreibweise der Adresse und versuchen Sie die Registrierung erneut.',
  1040006: 'Registrierungscode senden',
  1050001: 'Ihre Änderungen wurden gespeichert!',
  1060001: 'Sie haben Ihr Konto erfolgreich wiederhergestellt. Bitte ändern Sie Ihr Passwort oder richten Sie eine andere Anmeldemethode ein.',
  1060003:
    'Eine E-Mail mit einem Wiederherstellungscode wurde an die angegebene Adresse gesendet. Wenn Sie keine E-Mail erhalten haben, prüfen Sie die Schreibweise der Adresse und verwenden Sie die Adresse, mit der Sie sich registriert haben.',
  1070001: 'Passwort',
  1070003: 'Speichern',
  1070004: 'ID',
  1070005: 'Absenden',
  1070006: 'Bestätigen und fortfahren',
  1070007: 'E-Mail',
  1070008: 'Code erneut senden',
  1070009: 'Weiter',
  1070010: 'Wiederherstellungscode',
  1070011: 'Bestätigungscode',
  1070012: 'Registrierungscode',
  1070013: 'Anmeldecode',
  1080001:
    'Eine E-Mail mit einem Bestätigungslink wurde an die angegebene Adresse gesendet. Wenn Sie keine E-Mail erhalten haben, prüfen Sie die Schreibweise der Adresse und verwenden Sie die Adresse, mit der Sie sich registriert haben.',
  1080002: 'Sie haben Ihre E-Mail-Adresse erfolgreich bestätigt.',
  1080003:
    'Eine E-Mail mit einem Bestätigungscode wurde an die angegebene Adresse gesendet. Wenn Sie keine E-Mail erhalten haben, prüfen Sie die Schreibweise der Adresse und verwenden Sie die Adresse, mit der Sie sich registriert haben.',
  4000002: 'Die Angabe {property} fehlt.',
  4000006: 'Die Anmeldedaten sind ungültig. Prüfen Sie Passwort, Benutzernamen, E-Mail-Adresse oder Telefonnummer auf Tippfehler.',
  4000007: 'Es gibt bereits ein Konto mit dieser Kennung (E-Mail, Telefon, Benutzername, …).',
  4000031: 'Das Passwort ist der Kennung zu ähnlich und kann nicht verwendet werden.',
  4000032: 'Das Passwort muss mindestens {min_length} Zeichen lang sein, hat aber {actual_length}.',
  4000033: 'Das Passwort darf höchstens {max_length} Zeichen lang sein, hat aber {actual_length}.',
  4000034: 'Das Passwort wurde in Datenlecks gefunden und darf nicht mehr verwendet werden.',
  4000035: 'Dieses Konto existiert nicht oder hat die Anmeldung mit Code nicht eingerichtet.',
  4000036: 'Die angegebenen Merkmale stimmen nicht mit denen überein, die diesem Vorgang zuvor zugeordnet wurden.',
  4000040: 'Geben Sie eine gültige E-Mail-Adresse ein',
  4010001: 'Der Anmeldevorgang ist abgelaufen, bitte versuchen Sie es erneut.',
  4010008: 'Der Anmeldecode ist ungültig oder wurde bereits verwendet. Bitte versuchen Sie es erneut.',
  4040001: 'Der Registrierungsvorgang ist abgelaufen, bitte versuchen Sie es erneut.',
  4040003: 'Der Registrierungscode ist ungültig oder wurde bereits verwendet. Bitte versuchen Sie es erneut.',
  4050001: 'Der Einstellungsvorgang ist abgelaufen, bitte versuchen Sie es erneut.',
  4060004: 'Der Wiederherstellungslink ist ungültig oder wurde bereits verwendet. Bitte beginnen Sie erneut.',
  4060005: 'Der Wiederherstellungsvorgang ist abgelaufen, bitte versuchen Sie es erneut.',
  4060006: 'Der Wiederherstellungscode ist ungültig oder wurde bereits verwendet. Bitte versuchen Sie es erneut.',
  4070001: 'Der Bestätigungslink ist ungültig oder wurde bereits verwendet. Bitte beginnen Sie erneut.',
  4070005: 'Der Bestätigungsvorgang ist abgelaufen, bitte versuchen Sie es erneut.',
  4070006: 'Der Bestätigungscode ist ungültig oder wurde bereits verwendet. Bitte versuchen Sie es erneut.',
};

/** Field titles of generated labels (1070002 "{title}") in German. */
const TITLES_DE: Record<string, string> = { Email: 'E-Mail', 'E-Mail': 'E-Mail', Name: 'Name', Password: 'Passwort', Username: 'Benutzername', Phone: 'Telefon' };

export interface UiTextLike {
  id?: number;
  text: string;
  context?: Record<string, unknown> | object;
}

/** A UI text in `locale`. */
export function translate(locale: Locale, message: UiTextLike): string {
  if (locale === 'en' || message.id === undefined) return message.text;
  const context = (message.context ?? {}) as Record<string, unknown>;
  if (message.id === 1070002) return TITLES_DE[String(context.title ?? message.text)] ?? message.text;
  const template = MESSAGES_DE[message.id];
  return template ? fill(template, context) : message.text;
}

const SCOPES: Record<Locale, Record<string, string>> = {
  en: {
    openid: 'Confirm who you are',
    email: 'Your email address',
    profile: 'Your name and profile',
    address: 'Your postal address',
    phone: 'Your phone number',
    offline_access: 'Stay connected while you are away',
    offline: 'Stay connected while you are away',
  },
  de: {
    openid: 'Bestätigen, wer Sie sind',
    email: 'Ihre E-Mail-Adresse',
    profile: 'Ihr Name und Profil',
    address: 'Ihre Postanschrift',
    phone: 'Ihre Telefonnummer',
    offline_access: 'Verbunden bleiben, während Sie abwesend sind',
    offline: 'Verbunden bleiben, während Sie abwesend sind',
  },
};

/** A requested OAuth2 scope in words; a scope of the project's own is shown as it is named. */
export const scopeInWords = (locale: Locale, scope: string) => SCOPES[locale][scope] ?? scope;
