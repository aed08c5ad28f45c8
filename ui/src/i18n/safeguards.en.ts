// English strings of the graphic-content safeguards (ui/src/safeguards). Spread into en.ts as
// `safeguards`; ar has the same keys in safeguards.ar.ts.
export const safeguardsEn = {
  settingsLink: 'Image settings',
  today: 'Revealed today in this browser: {{n}}',
  todayNote: 'Images you revealed today (UTC), counted in this browser only.',
  reminder: {
    heading: 'Time for a short break?',
    body: 'You have revealed {{n}} images today. Looking at this material is heavy work. A few minutes away from the screen, some water or a word with a colleague can help. Come back whenever you are ready.',
    dismiss: 'Thank you, continue',
  },
  print: 'Content warning: this page includes images that may show injury or death.',
  settings: {
    heading: 'Image settings',
    intro:
      'These settings are for your account, and are kept in this browser only. They change how images are first shown to you; they never change what the server records.',
    mode: {
      legend: 'How images are first shown on the item page',
      blurred: 'Blurred and in greyscale (recommended)',
      blurredNote: 'Nothing is shown unblurred until you choose to reveal an image.',
      greyscale: 'Unblurred, in greyscale',
      greyscaleNote:
        'Each image is revealed as soon as it is shown, so each one is an unblurred view, recorded in the custody ledger.',
      colour: 'Unblurred, in colour',
      colourNote:
        'Each image is revealed as soon as it is shown, so each one is an unblurred view, recorded in the custody ledger.',
    },
    gridNote:
      'The evidence grid and the subject pages always show blurred previews, whatever you choose here.',
    examination: 'In my examination cases, show photographs in colour from the start',
    examinationNote:
      'For examiners: each photograph of your cases is then revealed as soon as it is shown, so each one is an unblurred view, recorded in the custody ledger. Elsewhere the choice above applies.',
    reminder: 'Suggest a break after this many revealed images',
    reminderNote:
      'Between {{min}} and {{max}}. The reminder comes back after each further as many.',
    save: 'Save',
    saved: 'Saved.',
    today: 'Images revealed today (UTC) in this browser: {{n}}.',
  },
  viewer: {
    colour: 'Show in colour',
  },
};
