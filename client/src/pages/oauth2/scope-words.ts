/** What a scope lets an application do with the user's console account, in words (unknown scopes are shown as they are). */
const WORDS: Record<string, string> = {
  openid: 'Know who you are (your account ID)',
  offline_access: 'Stay signed in when you are not using it (a refresh token)',
  offline: 'Stay signed in when you are not using it (a refresh token)',
  email: 'See your email address',
  profile: 'See your name',
};

export const scopeInWords = (scope: string): string => WORDS[scope] ?? scope;
