// Every mail the lab sends, in one place: a designer changes the wording or the look here.
// Each template answers a subject, an HTML body (inside the shared layout) and a plain-text body.
// Which mail goes out when: docs/product/mail.md.

export type Brand = {
  labName: string;
  /** Storage key of the lab logo; attached inline as cid:lab-logo when set. */
  logoKey: string | null;
  publicUrl: string;
  labEmail: string | null;
  labAddress: string | null;
};

export type RenderedMail = {
  subject: string;
  html: string;
  text: string;
  /** A notification the recipient may turn off (carries List-Unsubscribe). */
  unsubscribeUrl?: string;
};

const escapeHtml = (s: string) =>
  s.replace(
    /[&<>"']/g,
    (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c] ?? c,
  );

/** Paragraph text keeps its line breaks. */
const para = (s: string) => `<p style="margin:0 0 16px">${escapeHtml(s).replace(/\n/g, '<br>')}</p>`;

const button = (label: string, url: string) =>
  `<p style="margin:24px 0"><a href="${escapeHtml(url)}" style="background:#1c4e80;color:#ffffff;padding:12px 20px;border-radius:4px;text-decoration:none;display:inline-block">${escapeHtml(label)}</a></p>` +
  `<p style="margin:0 0 16px;font-size:13px;color:#555">Or open this address: <a href="${escapeHtml(url)}">${escapeHtml(url)}</a></p>`;

const quote = (s: string) =>
  `<blockquote style="margin:0 0 16px;padding:8px 16px;border-left:3px solid #ccc;color:#333">${escapeHtml(s).replace(/\n/g, '<br>')}</blockquote>`;

type Block =
  { p: string } | { button: string; url: string } | { quote: string } | { link: string; url: string };

function layout(brand: Brand, blocks: Block[], footer?: { unsubscribeUrl?: string }) {
  const body = blocks
    .map((b) =>
      'p' in b
        ? para(b.p)
        : 'button' in b
          ? button(b.button, b.url)
          : 'quote' in b
            ? quote(b.quote)
            : `<p style="margin:0 0 16px">${escapeHtml(b.link)}: <a href="${escapeHtml(b.url)}">${escapeHtml(b.url)}</a></p>`,
    )
    .join('\n');
  const logo = brand.logoKey
    ? `<img src="cid:lab-logo" alt="${escapeHtml(brand.labName)}" style="max-height:56px;max-width:240px">`
    : `<strong style="font-size:20px">${escapeHtml(brand.labName)}</strong>`;
  const contact = [brand.labAddress, brand.labEmail].filter(Boolean).map((s) => escapeHtml(String(s)));
  const unsubscribe = footer?.unsubscribeUrl
    ? `<p style="margin:8px 0 0">You receive this because status e-mails are on in your profile. <a href="${escapeHtml(footer.unsubscribeUrl)}">Stop these e-mails</a>.</p>`
    : '';
  const html = `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width"><title>${escapeHtml(brand.labName)}</title></head>
<body style="margin:0;padding:0;background:#f4f4f4;font-family:Arial,Helvetica,sans-serif;color:#222;line-height:1.5">
<table role="presentation" width="100%" cellpadding="0" cellspacing="0"><tr><td align="center" style="padding:24px 12px">
<table role="presentation" width="600" cellpadding="0" cellspacing="0" style="max-width:600px;width:100%;background:#ffffff;border-radius:6px">
<tr><td style="padding:20px 28px;border-bottom:1px solid #e5e5e5"><a href="${escapeHtml(brand.publicUrl)}" style="color:#1c4e80;text-decoration:none">${logo}</a></td></tr>
<tr><td style="padding:24px 28px;font-size:15px">
${body}
</td></tr>
<tr><td style="padding:16px 28px;border-top:1px solid #e5e5e5;font-size:12px;color:#666">
<p style="margin:0">${escapeHtml(brand.labName)}${contact.length ? ` · ${contact.join(' · ')}` : ''}</p>${unsubscribe}
</td></tr></table></td></tr></table></body></html>`;
  const textBody = blocks
    .map((b) =>
      'p' in b
        ? b.p
        : 'button' in b
          ? `${b.button}: ${b.url}`
          : 'quote' in b
            ? b.quote
                .split('\n')
                .map((l) => `> ${l}`)
                .join('\n')
            : `${b.link}: ${b.url}`,
    )
    .join('\n\n');
  const text = [
    textBody,
    '--',
    [brand.labName, ...[brand.labAddress, brand.labEmail].filter(Boolean)].join(' · '),
    ...(footer?.unsubscribeUrl ? [`Stop status e-mails: ${footer.unsubscribeUrl}`] : []),
  ].join('\n\n');
  return { html, text };
}

const hello = (firstName: string | null | undefined) => ({ p: firstName ? `Hello ${firstName},` : 'Hello,' });

function mail(brand: Brand, subject: string, blocks: Block[], unsubscribeUrl?: string): RenderedMail {
  return {
    subject,
    ...layout(brand, blocks, { unsubscribeUrl }),
    ...(unsubscribeUrl ? { unsubscribeUrl } : {}),
  };
}

/** What both second-review mails to a report's author say (docs/product/mail.md). */
type ReviewMailData = {
  firstName: string | null;
  displayId: string;
  itemName: string;
  reportCode: string;
  revision: number;
  reviewerName: string;
  sampleUrl: string;
};

/** The changes to an account's two-factor sign-in its owner is told about (docs/product/mail.md). */
export type TwoFactorEvent =
  'enabled' | 'disabled' | 'recoveryCodesRenewed' | 'recoveryCodeUsed' | 'resetByAdmin' | 'guessLimitReached';

const twoFactorWording = (
  labName: string,
  event: TwoFactorEvent,
  remaining: number | null,
): { subject: string; p: string } =>
  ({
    enabled: {
      subject: `Two-factor sign-in was turned on for your ${labName} account`,
      p: 'Two-factor sign-in was just turned on for your account: signing in now needs a code from an authenticator app as well as your password.',
    },
    disabled: {
      subject: `Two-factor sign-in was turned off for your ${labName} account`,
      p: 'Two-factor sign-in was just turned off for your account: your password alone signs in again.',
    },
    recoveryCodesRenewed: {
      subject: `New recovery codes were made for your ${labName} account`,
      p: 'New recovery codes were just made for your account. The old ones no longer work.',
    },
    recoveryCodeUsed: {
      subject: `A recovery code was used to sign in to your ${labName} account`,
      p: `Someone signed in to your account with one of its recovery codes. ${
        remaining === null ? '' : `${remaining} unused ${remaining === 1 ? 'code remains' : 'codes remain'}.`
      }`.trim(),
    },
    resetByAdmin: {
      subject: `An administrator turned off two-factor sign-in for your ${labName} account`,
      p: 'An administrator of the lab turned off two-factor sign-in for your account, and its recovery codes no longer work. You can set it up again in your profile.',
    },
    guessLimitReached: {
      subject: `Many wrong sign-in codes for your ${labName} account`,
      p: 'Someone entered your password correctly and then many wrong two-factor codes. Signing in with a code is paused for 15 minutes. If this was not you, your password is known to someone else: change it now.',
    },
  })[event];

export const templates = {
  welcome: (b: Brand, d: { firstName: string | null; verifyUrl: string }) =>
    mail(b, `Welcome to ${b.labName}: please confirm your e-mail address`, [
      hello(d.firstName),
      {
        p: `Your account at ${b.labName} is ready. You can submit items for valuation and follow them from your dashboard.`,
      },
      { p: 'Please confirm that this e-mail address is yours:' },
      { button: 'Confirm my e-mail address', url: d.verifyUrl },
      { p: 'The link is valid for 7 days. If you did not create this account, you can ignore this message.' },
    ]),

  verifyEmail: (b: Brand, d: { firstName: string | null; verifyUrl: string }) =>
    mail(b, `Confirm your e-mail address for ${b.labName}`, [
      hello(d.firstName),
      { p: 'Please confirm that this e-mail address is yours:' },
      { button: 'Confirm my e-mail address', url: d.verifyUrl },
      { p: 'The link is valid for 7 days. If you did not ask for it, you can ignore this message.' },
    ]),

  passwordReset: (b: Brand, d: { firstName: string | null; resetUrl: string }) =>
    mail(b, `Reset your ${b.labName} password`, [
      hello(d.firstName),
      {
        p: 'Someone (hopefully you) asked to reset the password of your account. Choose a new password here:',
      },
      { button: 'Choose a new password', url: d.resetUrl },
      {
        p: 'The link works once and expires in 60 minutes. If you did not ask for this, ignore this message: your password stays as it is.',
      },
    ]),

  passwordChanged: (b: Brand, d: { firstName: string | null; loginUrl: string; forgotUrl: string }) =>
    mail(b, `Your ${b.labName} password was changed`, [
      hello(d.firstName),
      { p: 'The password of your account was just changed, and every other session was signed out.' },
      { p: 'If this was not you, reset your password now and tell us:' },
      { link: 'Reset your password', url: d.forgotUrl },
    ]),

  emailChanged: (b: Brand, d: { firstName: string | null; newEmail: string; forgotUrl: string }) =>
    mail(b, `The e-mail address of your ${b.labName} account was changed`, [
      hello(d.firstName),
      {
        p: `The e-mail address of your account was changed to ${d.newEmail}. Mails from now on go to the new address.`,
      },
      { p: 'If this was not you, contact us at once.' },
      { link: 'Our website', url: d.forgotUrl },
    ]),

  sampleSubmitted: (
    b: Brand,
    d: { firstName: string | null; displayId: string; itemName: string; sampleUrl: string },
  ) =>
    mail(b, `We received your sample ${d.displayId}: ${d.itemName}`, [
      hello(d.firstName),
      { p: `Thank you: we received your submission "${d.itemName}" as ${d.displayId}.` },
      {
        p: 'What happens next: a specialist of the lab is assigned to your item, examines it and records the findings. You can follow every step on the sample page; we e-mail you when the status changes and when your report is issued.',
      },
      { button: `View ${d.displayId}`, url: d.sampleUrl },
    ]),

  collectionImported: (
    b: Brand,
    d: {
      firstName: string | null;
      collectionName: string;
      count: number;
      firstId: string;
      lastId: string;
      collectionUrl: string;
    },
  ) =>
    mail(b, `We received ${d.count} ${d.count === 1 ? 'item' : 'items'} for "${d.collectionName}"`, [
      hello(d.firstName),
      {
        p: `Thank you: your import into the collection "${d.collectionName}" was received. ${d.count === 1 ? `The item is ${d.firstId}.` : `Its ${d.count} items are ${d.firstId} to ${d.lastId}.`}`,
      },
      {
        p: 'What happens next: specialists of the lab are assigned to the items, examine them and record the findings. The collection page shows every item with its status and, once its report is issued, its value.',
      },
      { button: 'View the collection', url: d.collectionUrl },
    ]),

  statusChanged: (
    b: Brand,
    d: {
      firstName: string | null;
      displayId: string;
      itemName: string;
      statusLabel: string;
      comment: string | null;
      sampleUrl: string;
      unsubscribeUrl: string;
    },
  ) =>
    mail(
      b,
      `${d.displayId} is now "${d.statusLabel}"`,
      [
        hello(d.firstName),
        { p: `The status of your sample ${d.displayId} (${d.itemName}) changed to: ${d.statusLabel}.` },
        ...(d.comment ? [{ quote: d.comment }] : []),
        { button: `View ${d.displayId}`, url: d.sampleUrl },
      ],
      d.unsubscribeUrl,
    ),

  revaluationDue: (
    b: Brand,
    d: {
      firstName: string | null;
      displayId: string;
      itemName: string;
      reportCode: string;
      revalueBy: string;
      sampleUrl: string;
      unsubscribeUrl: string;
    },
  ) =>
    mail(
      b,
      `Time to have ${d.itemName} valued again`,
      [
        hello(d.firstName),
        {
          p: `The value in report ${d.reportCode} for ${d.displayId} (${d.itemName}) should be renewed by ${d.revalueBy}: markets move, and an insurer or a court may ask for a current value.`,
        },
        {
          p: 'You can request a re-valuation in one click from your sample page; your earlier details are filled in for you.',
        },
        { button: `Request re-valuation`, url: d.sampleUrl },
      ],
      d.unsubscribeUrl,
    ),

  reportIssued: (
    b: Brand,
    d: {
      firstName: string | null;
      displayId: string;
      itemName: string;
      reportCode: string;
      revision: number;
      sampleUrl: string;
      verifyUrl: string;
    },
  ) =>
    mail(
      b,
      d.revision > 1
        ? `Your report ${d.reportCode} was re-issued (revision ${d.revision})`
        : `Your report ${d.reportCode} is ready`,
      [
        hello(d.firstName),
        {
          p:
            d.revision > 1
              ? `The report for ${d.displayId} (${d.itemName}) was re-issued as revision ${d.revision}. Its code stays ${d.reportCode}.`
              : `The report for ${d.displayId} (${d.itemName}) has been issued. Report code: ${d.reportCode} (revision ${d.revision}).`,
        },
        { button: 'Download it from the sample page', url: d.sampleUrl },
        { link: 'Anyone can check the report here', url: d.verifyUrl },
      ],
    ),

  reportWithdrawn: (
    b: Brand,
    d: { firstName: string | null; displayId: string; reportCode: string; reason: string; sampleUrl: string },
  ) =>
    mail(b, `Your report ${d.reportCode} was withdrawn`, [
      hello(d.firstName),
      {
        p: `The lab withdrew the report ${d.reportCode} for ${d.displayId}. Verification now shows it as withdrawn. The reason:`,
      },
      { quote: d.reason },
      { button: `View ${d.displayId}`, url: d.sampleUrl },
    ]),

  quoteSent: (
    b: Brand,
    d: {
      firstName: string | null;
      displayId: string;
      itemName: string;
      lines: string[];
      total: string;
      validUntil: string;
      note: string | null;
      sampleUrl: string;
    },
  ) =>
    mail(b, `Your quote for ${d.displayId} ${d.itemName}: ${d.total}`, [
      hello(d.firstName),
      { p: `The lab has priced its work on ${d.displayId} (${d.itemName}):` },
      { quote: `${d.lines.join('\n')}\nTotal: ${d.total}` },
      ...(d.note ? [{ p: 'A note from the lab:' }, { quote: d.note }] : []),
      {
        p: `Please accept or decline it on the sample page by ${d.validUntil}. Work starts when you accept, and the expected completion date is counted from then.`,
      },
      { button: `Review the quote for ${d.displayId}`, url: d.sampleUrl },
    ]),

  quoteAnswered: (
    b: Brand,
    d: {
      firstName: string | null;
      displayId: string;
      itemName: string;
      customerName: string;
      accepted: boolean;
      total: string;
      reason: string | null;
      sampleUrl: string;
    },
  ) =>
    mail(b, `Quote ${d.accepted ? 'accepted' : 'declined'}: ${d.displayId} ${d.itemName} (${d.total})`, [
      hello(d.firstName),
      d.accepted
        ? {
            p: `${d.customerName} accepted the quote of ${d.total} for ${d.displayId} (${d.itemName}). The work can start: the expected completion date counts from now.`,
          }
        : {
            p: `${d.customerName} declined the quote of ${d.total} for ${d.displayId} (${d.itemName}). ${d.reason ? 'Their reason:' : 'They gave no reason.'}`,
          },
      ...(d.reason && !d.accepted ? [{ quote: d.reason }] : []),
      ...(d.accepted ? [] : [{ p: 'You can send a new quote from the sample page.' }]),
      { button: `Open ${d.displayId}`, url: d.sampleUrl },
    ]),

  invoiceIssued: (
    b: Brand,
    d: {
      firstName: string | null;
      displayId: string;
      itemName: string;
      number: string;
      total: string;
      paymentInstructions: string | null;
      paymentLink: string | null;
      sampleUrl: string;
    },
  ) =>
    mail(b, `Your invoice ${d.number} for ${d.displayId} ${d.itemName}: ${d.total}`, [
      hello(d.firstName),
      {
        p: `Thank you for accepting the quote for ${d.displayId} (${d.itemName}). Your invoice ${d.number} for ${d.total} is ready to download on the sample page.`,
      },
      ...(d.paymentInstructions ? [{ p: 'How to pay:' }, { quote: d.paymentInstructions }] : []),
      ...(d.paymentLink ? [{ button: 'Pay online', url: d.paymentLink }] : []),
      { p: `Please quote the payment reference ${d.number} with your payment.` },
      { button: `Open ${d.displayId}`, url: d.sampleUrl },
    ]),

  sampleAssigned: (
    b: Brand,
    d: { firstName: string | null; displayId: string; itemName: string; sampleUrl: string },
  ) =>
    mail(b, `Assigned to you: ${d.displayId} ${d.itemName}`, [
      hello(d.firstName),
      { p: `The sample ${d.displayId} (${d.itemName}) was assigned to you.` },
      { button: `Open ${d.displayId}`, url: d.sampleUrl },
    ]),

  reportApproved: (b: Brand, d: ReviewMailData) =>
    mail(b, `Approved: report ${d.reportCode} for ${d.displayId} is now issued`, [
      hello(d.firstName),
      {
        p: `${d.reviewerName} reviewed your report ${d.reportCode} (revision ${d.revision}) for ${d.displayId} (${d.itemName}) and approved it. It is now issued: the customer can read and download it, and anyone with the code can verify it.`,
      },
      { button: `Open ${d.displayId}`, url: d.sampleUrl },
    ]),

  reportSentBack: (b: Brand, d: ReviewMailData & { comment: string }) =>
    mail(b, `Sent back: your report for ${d.displayId} ${d.itemName}`, [
      hello(d.firstName),
      {
        p: `${d.reviewerName} reviewed your report ${d.reportCode} (revision ${d.revision}) for ${d.displayId} (${d.itemName}) and sent it back. Nothing was made public. The reviewer's comment:`,
      },
      { quote: d.comment },
      { p: 'Make the changes on the sample page and issue the report again: it goes back for review.' },
      { button: `Open ${d.displayId}`, url: d.sampleUrl },
    ]),

  twoFactorChanged: (
    b: Brand,
    d: {
      firstName: string | null;
      event: TwoFactorEvent;
      /** Unused recovery codes left (recoveryCodeUsed). */
      remainingRecoveryCodes?: number | null;
      profileUrl: string;
      forgotUrl: string;
    },
  ) => {
    const w = twoFactorWording(b.labName, d.event, d.remainingRecoveryCodes ?? null);
    return mail(b, w.subject, [
      hello(d.firstName),
      { p: w.p },
      { link: 'Your profile', url: d.profileUrl },
      {
        p: 'If this was not you, reset your password at once, sign out everywhere from your profile and tell us.',
      },
      { link: 'Reset your password', url: d.forgotUrl },
    ]);
  },

  itemArrived: (
    b: Brand,
    d: {
      firstName: string | null;
      displayId: string;
      itemName: string;
      receivedOn: string;
      itemCount: number;
      condition: string;
      sampleUrl: string;
    },
  ) =>
    mail(b, `Your item has arrived: ${d.displayId} ${d.itemName}`, [
      hello(d.firstName),
      {
        p: `Your item ${d.displayId} (${d.itemName}) arrived at ${b.labName} on ${d.receivedOn}: ${d.itemCount === 1 ? 'one piece' : `${d.itemCount} pieces`}. Its condition on arrival, as our intake desk recorded it:`,
      },
      { quote: d.condition },
      {
        p: 'It is now kept in the lab until its work is done. You can follow where it is on the sample page.',
      },
      { button: `View ${d.displayId}`, url: d.sampleUrl },
    ]),

  itemReturned: (
    b: Brand,
    d: {
      firstName: string | null;
      displayId: string;
      itemName: string;
      returnedOn: string;
      carrier: string;
      trackingNumber: string;
      insured: string | null;
      sampleUrl: string;
    },
  ) =>
    mail(b, `Your item is on its way back: ${d.displayId} ${d.itemName}`, [
      hello(d.firstName),
      {
        p: `We sent your item ${d.displayId} (${d.itemName}) back to you on ${d.returnedOn} by ${d.carrier}.`,
      },
      {
        quote: `Carrier: ${d.carrier}\nTracking number: ${d.trackingNumber}${d.insured ? `\nInsured for: ${d.insured}` : ''}`,
      },
      { p: 'Please check the parcel when it arrives and tell us at once if anything is wrong.' },
      { button: `View ${d.displayId}`, url: d.sampleUrl },
    ]),

  itemCollected: (
    b: Brand,
    d: {
      firstName: string | null;
      displayId: string;
      itemName: string;
      collectedOn: string;
      collectedBy: string;
      sampleUrl: string;
    },
  ) =>
    mail(b, `Your item was collected: ${d.displayId} ${d.itemName}`, [
      hello(d.firstName),
      {
        p: `Your item ${d.displayId} (${d.itemName}) was collected from ${b.labName} on ${d.collectedOn} by ${d.collectedBy}, whose identity document we checked.`,
      },
      { p: 'If you did not expect this, contact us at once.' },
      { button: `View ${d.displayId}`, url: d.sampleUrl },
    ]),

  // Anyone can send the contact form with any address, so the acknowledgement carries none of the
  // sender's words (no name, no message): it cannot be used to mail someone else a text of one's own.
  contactAck: (b: Brand, d: { subject: string }) =>
    mail(b, `We received your message: ${d.subject}`, [
      hello(null),
      {
        p: `Thank you for writing to ${b.labName}. We read every message and answer within two working days. You can reply to our answer when it comes; if you did not write to us, you can ignore this message.`,
      },
    ]),

  inquiryReply: (b: Brand, d: { firstName: string; subject: string; reply: string; message: string }) =>
    mail(b, `Re: ${d.subject}`, [
      hello(d.firstName),
      { p: d.reply },
      { p: 'You wrote:' },
      { quote: d.message },
    ]),
} satisfies Record<string, (b: Brand, d: never) => RenderedMail>;

export type MailKind = keyof typeof templates;
export type MailData<K extends MailKind> = Parameters<(typeof templates)[K]>[1];
