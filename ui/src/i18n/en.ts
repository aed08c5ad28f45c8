// English strings of the web UI. Every page's text lives here and in ar.ts, which must have
// exactly these keys (the type below); tsc fails when a string is missing in either.
export const en = {
  app: {
    name: 'Custody',
    tagline: 'Evidence archive',
  },
  skipLink: 'Skip to the main content',
  language: {
    label: 'Language',
  },
  nav: {
    label: 'Main',
    overview: 'Overview',
  },
  account: {
    label: 'Your account',
    role: 'Role: {{role}}',
    signOut: 'Sign out',
    signingOut: 'Signing out…',
  },
  roles: {
    administrator: 'Administrator',
    investigator: 'Investigator',
    examiner: 'Examiner',
    adjudicator: 'Adjudicator',
    analyst: 'Analyst',
    lawyer: 'Lawyer',
    'family liaison': 'Family liaison',
    'source custodian': 'Source custodian',
    auditor: 'Auditor',
  },
  signIn: {
    heading: 'Sign in',
    intro: 'Sign in with the name and password your administrator gave you.',
    name: 'Name',
    password: 'Password',
    submit: 'Sign in',
    submitting: 'Signing in…',
    failed: 'The name or password is wrong, or the account is disabled.',
    expired: 'Your session ended. Please sign in again.',
    signedOut: 'You have signed out.',
    unreachable: 'The server could not be reached. Check the connection and try again.',
    refused: 'The server refused to sign you in: {{message}}',
  },
  overview: {
    heading: 'Overview',
    loading: 'Loading the archive…',
    error: 'The overview could not be loaded: {{message}}',
    archive: {
      heading: 'Archive',
      id: 'Archive',
      origin: 'Ledger origin',
      database: 'Database',
    },
    counts: {
      heading: 'In the archive',
      items: 'Items',
      objects: 'Stored files',
      deliveries: 'Deliveries',
      ledger: 'Ledger entries',
    },
    empty: {
      heading: 'No evidence has been received yet',
      body: 'Deliveries are received on the server with custody ingest. Each item appears here as soon as it is recorded in the ledger.',
    },
    checkpoint: {
      heading: 'Latest signed checkpoint',
      intro:
        'The checkpoint is the ledger’s root hash at a given size, signed with the archive’s key. The same root is shown in two spellings.',
      size: 'Ledger entries covered',
      rootHex: 'Root hash (hex)',
      rootBase64: 'Root hash (base64)',
      verifierKey: 'Verifier key',
      verified: 'The signature verifies with the archive’s verifier key (checked in this browser).',
      notVerified: 'The signature does not verify: {{reason}}',
      originMismatch: 'The checkpoint names another log ({{origin}}).',
      caveat:
        'This check ran code that this server sent, so it cannot protect against this server. For an independent check, run custody verify-export on an export, on a computer you trust.',
      none: 'No checkpoint has been signed yet. The server signs one within ten seconds of a change, and again when it stops.',
      noteMissing:
        'This server does not send the signed checkpoint itself, so its root cannot be shown here.',
    },
  },
  notFound: {
    heading: 'Page not found',
    body: 'There is no page at this address.',
    back: 'Go to the overview',
  },
} as const;

type Widen<T> = { [K in keyof T]: T[K] extends string ? string : Widen<T[K]> };

/** The shape every language's strings must have. */
export type Messages = Widen<typeof en>;
