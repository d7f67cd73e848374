/** Spec §2: the console's external links, in one place. */
export const EXTERNAL_LINKS = {
  homepage: 'https://www.ory.sh/',
  pricing: 'https://www.ory.sh/pricing',
  docs: 'https://www.ory.sh/docs',
  status: 'https://status.ory.sh/',
  terms: 'https://www.ory.sh/tos',
  privacy: 'https://www.ory.sh/privacy',
  contact: 'https://www.ory.sh/contact',
  talkToSales: 'https://www.ory.sh/contact-sales',
  bookDemo: 'https://www.ory.sh/book-demo',
} as const;

export type ExternalLinkId = keyof typeof EXTERNAL_LINKS;

/** The help menu's entries, in order, with the label each link shows. */
export const HELP_LINKS: ReadonlyArray<{ id: ExternalLinkId; label: string }> = [
  { id: 'docs', label: 'Documentation' },
  { id: 'status', label: 'Service status' },
  { id: 'pricing', label: 'Pricing' },
  { id: 'contact', label: 'Contact us' },
  { id: 'talkToSales', label: 'Talk to sales' },
  { id: 'bookDemo', label: 'Book a demo' },
  { id: 'terms', label: 'Terms of service' },
  { id: 'privacy', label: 'Privacy policy' },
  { id: 'homepage', label: 'Homepage' },
];
