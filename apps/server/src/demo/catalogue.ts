import type { CategoryInput, ChannelStep } from "@herald/db";

/** The demo's categories: what people can opt out of, and what is tracked. */
export const DEMO_CATEGORIES: ReadonlyArray<{ key: string; input: CategoryInput }> = [
  { key: "security", input: { label: "Security", mandatory: true } },
  { key: "orders", input: { label: "Orders and shipping", defaults: { push: true, email: true, sms: true } } },
  { key: "onboarding", input: { label: "Getting started", tracking: { opens: true, clicks: true } } },
  { key: "product", input: { label: "Lessons and product news", defaults: { sms: false }, tracking: { opens: true, clicks: true } } },
  {
    key: "reminders",
    input: { label: "Reminders", defaults: { email: false, sms: false }, frequencyCap: { max: 1, windowSeconds: 86_400, action: "skip" } },
  },
  { key: "newsletter", input: { label: "Weekly digest", defaults: { push: false, sms: false }, tracking: { opens: true, clicks: true } } },
  { key: "promotions", input: { label: "Offers and promotions", defaults: { sms: false }, aliases: ["marketing"], tracking: { opens: true, clicks: true } } },
];

type Channel = "push" | "email" | "sms";

interface DemoTemplate {
  key: string;
  name: string;
  category: string;
  channels: Channel[];
  variables: Array<{ name: string; type: "string" | "number" | "url"; required: boolean; example: unknown }>;
  /** Version 1 and version 2: every template has two published versions. */
  versions: [Record<string, unknown>, Record<string, unknown>];
}

const NAME = { name: "user.first_name", type: "string", required: false, example: "Ada" } as const;
const hi = "{{ user.first_name | default: 'there' }}";

export const DEMO_TEMPLATES: readonly DemoTemplate[] = [
  {
    key: "order_shipped",
    name: "Order shipped",
    category: "orders",
    channels: ["push", "email", "sms"],
    variables: [NAME, { name: "data.order_id", type: "string", required: true, example: "A-1042" }, { name: "data.carrier", type: "string", required: true, example: "DHL" }],
    versions: [
      {
        en: {
          push: { title: "Your order is on its way", body: "Order {{ data.order_id }} shipped with {{ data.carrier }}." },
          email: { subject: "Order {{ data.order_id }} has shipped", html: `<p>Hi ${hi},</p><p>Order {{ data.order_id }} is on its way with {{ data.carrier }}.</p>` },
          sms: { body: "Order {{ data.order_id }} shipped with {{ data.carrier }}." },
        },
      },
      {
        en: {
          push: { title: "📦 On its way!", body: "{{ data.carrier }} has order {{ data.order_id }}." },
          email: { subject: "📦 {{ data.order_id }} is on its way", html: `<p>Good news ${hi}!</p><p>{{ data.carrier }} picked up order {{ data.order_id }}.</p>` },
          sms: { body: "📦 {{ data.carrier }} has order {{ data.order_id }}." },
        },
        de: {
          push: { title: "📦 Unterwegs!", body: "{{ data.carrier }} bringt Bestellung {{ data.order_id }}." },
          email: { subject: "📦 {{ data.order_id }} ist unterwegs", html: "<p>Gute Nachricht!</p><p>{{ data.carrier }} bringt Bestellung {{ data.order_id }}.</p>" },
          sms: { body: "📦 {{ data.carrier }} bringt Bestellung {{ data.order_id }}." },
        },
      },
    ],
  },
  {
    key: "password_reset",
    name: "Password reset",
    category: "security",
    channels: ["email"],
    variables: [NAME, { name: "data.code", type: "string", required: true, example: "493021" }],
    versions: [
      { en: { email: { subject: "Your reset code", html: `<p>Hi ${hi}, your code is <b>{{ data.code }}</b>.</p>` } } },
      { en: { email: { subject: "Reset code: {{ data.code }}", html: `<p>Hi ${hi}, your code is <b>{{ data.code }}</b>. It expires in 15 minutes.</p>` } } },
    ],
  },
  {
    key: "weekly_digest",
    name: "Weekly digest",
    category: "newsletter",
    channels: ["email"],
    variables: [NAME, { name: "data.lessons", type: "number", required: true, example: 4 }],
    versions: [
      { en: { email: { subject: "Your week in review", html: `<p>Hi ${hi}, you finished {{ data.lessons }} lessons this week.</p><p><a href="https://example.com/progress">See your progress</a></p>` } } },
      { en: { email: { subject: "{{ data.lessons }} lessons this week, {{ user.first_name | default: 'friend' }} 🎉", html: `<p>${hi}, {{ data.lessons }} lessons this week!</p><p><a href="https://example.com/progress">Keep the streak going</a></p>` } } },
    ],
  },
  {
    key: "streak_reminder",
    name: "Streak reminder",
    category: "reminders",
    channels: ["push"],
    variables: [NAME, { name: "data.streak", type: "number", required: true, example: 12 }],
    versions: [
      { en: { push: { title: "Keep your streak", body: "{{ data.streak }} days in a row. Five minutes keeps it going." } } },
      { en: { push: { title: "🔥 {{ data.streak }}-day streak", body: "Don't lose it now, {{ user.first_name | default: 'friend' }}." } } },
    ],
  },
  {
    key: "lesson_recommended",
    name: "Lesson recommended",
    category: "product",
    channels: ["push", "email"],
    variables: [NAME, { name: "data.lesson", type: "string", required: true, example: "Past tense in 10 minutes" }],
    versions: [
      {
        en: {
          push: { title: "A lesson for you", body: "{{ data.lesson }}" },
          email: { subject: "Recommended: {{ data.lesson }}", html: `<p>Hi ${hi}, we picked <a href="https://example.com/lesson">{{ data.lesson }}</a> for you.</p>` },
        },
      },
      {
        en: {
          push: { title: "Picked for you ✨", body: "{{ data.lesson }} — ten minutes." },
          email: { subject: "✨ {{ data.lesson }}", html: `<p>${hi}, ten minutes well spent: <a href="https://example.com/lesson">{{ data.lesson }}</a>.</p>` },
        },
      },
    ],
  },
  {
    key: "welcome",
    name: "Welcome",
    category: "onboarding",
    channels: ["push", "email"],
    variables: [NAME],
    versions: [
      { en: { push: { title: "Welcome!", body: "Your first lesson is ready." }, email: { subject: "Welcome aboard", html: `<p>Welcome ${hi}!</p><p><a href="https://example.com/start">Start your first lesson</a></p>` } } },
      {
        en: { push: { title: "Welcome, {{ user.first_name | default: 'friend' }} 👋", body: "Your first lesson takes five minutes." }, email: { subject: "Welcome, {{ user.first_name | default: 'friend' }} 👋", html: `<p>Welcome ${hi}!</p><p><a href="https://example.com/start">Five minutes to your first lesson</a></p>` } },
        de: { push: { title: "Willkommen 👋", body: "Deine erste Lektion dauert fünf Minuten." }, email: { subject: "Willkommen 👋", html: `<p>Willkommen!</p><p><a href="https://example.com/start">Zur ersten Lektion</a></p>` } },
      },
    ],
  },
  {
    key: "winter_sale",
    name: "Winter sale",
    category: "promotions",
    channels: ["push", "email"],
    variables: [NAME],
    versions: [
      { en: { push: { title: "Winter sale", body: "Pro is 40 % off this week." }, email: { subject: "Winter sale: Pro is 40 % off", html: `<p>Hi ${hi},</p><p><a href="https://example.com/pro">Get Pro for 40 % less</a> until Sunday.</p>` } } },
      { en: { push: { title: "❄️ 40 % off Pro", body: "Only until Sunday." }, email: { subject: "❄️ {{ user.first_name | default: 'Friend' }}, 40 % off Pro ends Sunday", html: `<p>${hi}, <a href="https://example.com/pro">Pro is 40 % off</a> until Sunday.</p>` } } },
    ],
  },
  {
    key: "product_update",
    name: "Product update",
    category: "product",
    channels: ["push", "email"],
    variables: [NAME],
    versions: [
      { en: { push: { title: "New: speaking practice", body: "Talk through a lesson out loud." }, email: { subject: "New: speaking practice", html: `<p>Hi ${hi}, <a href="https://example.com/new">speaking practice</a> is here.</p>` } } },
      { en: { push: { title: "🎙️ Speaking practice is here", body: "Say it out loud, get feedback instantly." }, email: { subject: "🎙️ Practise speaking, get instant feedback", html: `<p>${hi}, <a href="https://example.com/new">try speaking practice</a>.</p>` } } },
    ],
  },
  {
    key: "comeback",
    name: "We miss you",
    category: "promotions",
    channels: ["push"],
    variables: [NAME],
    versions: [
      { en: { push: { title: "We miss you", body: "A five-minute lesson is waiting." } } },
      { en: { push: { title: "It's been a while, {{ user.first_name | default: 'friend' }}", body: "Pick up where you left off — five minutes." } } },
    ],
  },
];

/** Event type → channel steps: what the app's events turn into. */
export const DEMO_TYPES: ReadonlyArray<{ type: string; steps: ChannelStep[] }> = [
  {
    type: "order.shipped",
    steps: [
      { channel: "push", category: "orders", lane: "critical", template: "order_shipped" },
      { channel: "email", category: "orders", template: "order_shipped" },
      { channel: "sms", category: "orders", template: "order_shipped" },
    ],
  },
  { type: "password.reset", steps: [{ channel: "email", category: "security", lane: "critical", template: "password_reset" }] },
  { type: "digest.weekly", steps: [{ channel: "email", category: "newsletter", template: "weekly_digest" }] },
  { type: "streak.at_risk", steps: [{ channel: "push", category: "reminders", template: "streak_reminder" }] },
  {
    type: "lesson.recommended",
    steps: [
      { channel: "push", category: "product", template: "lesson_recommended" },
      { channel: "email", category: "product", template: "lesson_recommended" },
    ],
  },
  {
    type: "user.signed_up",
    steps: [
      { channel: "push", category: "onboarding", template: "welcome" },
      { channel: "email", category: "onboarding", template: "welcome" },
    ],
  },
];
