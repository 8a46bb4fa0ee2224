const labels: Record<string, string> = {
  title: "Title",
  body: "Body",
  imageUrl: "Image URL",
  deepLink: "Deep link",
  data: "Data",
  subject: "Subject",
  preheader: "Preheader",
  html: "HTML body",
  text: "Text body",
};

/** "html" → "HTML body", as the editor labels its inputs; a field it does not know, as it comes. */
export function fieldLabel(field: string): string {
  return labels[field] ?? field;
}
