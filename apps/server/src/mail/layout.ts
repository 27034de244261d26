// One look for every message: the plain-text body as written, and an HTML body built from the same
// paragraphs and button, every value escaped. Messages (messages.ts) say what, this says how.

export interface MailContent {
  subject: string;
  /** Paragraphs, in order. */
  paragraphs: string[];
  /** The one thing to do, as a button in HTML and a bare link in text. */
  action?: { label: string; url: string };
  /** A closing line in small print (why they got it, what to do if it was not them). */
  footnote?: string;
}

export interface RenderedMail {
  subject: string;
  text: string;
  html: string;
}

const escapeHtml = (value: string): string =>
  value.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c] ?? c);

export function render({ subject, paragraphs, action, footnote }: MailContent): RenderedMail {
  const text = [
    ...paragraphs,
    ...(action ? [`${action.label}: ${action.url}`] : []),
    ...(footnote ? [footnote] : []),
    '— OwnVoice',
  ].join('\n\n');
  const button = action
    ? `<p style="margin:24px 0"><a href="${escapeHtml(action.url)}" style="background:#5f3dc4;color:#ffffff;padding:12px 20px;border-radius:8px;text-decoration:none;font-weight:600">${escapeHtml(action.label)}</a></p>
<p style="color:#495057;font-size:13px">Or open this link: <a href="${escapeHtml(action.url)}">${escapeHtml(action.url)}</a></p>`
    : '';
  const html = `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>${escapeHtml(subject)}</title></head>
<body style="font-family:system-ui,-apple-system,'Segoe UI',sans-serif;color:#212529;line-height:1.5;max-width:560px;margin:0 auto;padding:24px">
<p style="font-weight:700;font-size:18px;margin:0 0 16px">OwnVoice</p>
${paragraphs.map((p) => `<p>${escapeHtml(p)}</p>`).join('\n')}
${button}
${footnote ? `<p style="color:#495057;font-size:13px">${escapeHtml(footnote)}</p>` : ''}
</body></html>
`;
  return { subject, text, html };
}

/** "27 November 2026, 14:05 UTC": one way to write a time in every message, whatever the reader's zone. */
export function formatWhen(date: Date): string {
  const day = date.toLocaleDateString('en-GB', { day: 'numeric', month: 'long', year: 'numeric', timeZone: 'UTC' });
  const time = date.toLocaleTimeString('en-GB', { hour: '2-digit', minute: '2-digit', timeZone: 'UTC' });
  return `${day}, ${time} UTC`;
}
