import type { Sql } from "../sql.ts";

export interface SandboxMessageInput {
  notificationId: string;
  providerMessageId: string;
  channel: "push" | "email" | "sms";
  recipient: string;
  subject?: string | null;
  title?: string | null;
  body: string;
  headers?: Record<string, string> | null;
  data?: Record<string, string> | null;
}

export interface SandboxMessage extends SandboxMessageInput {
  id: string;
  createdAt: Date;
}

/** The sandbox's "send": one multi-row insert for a whole batch. */
export async function insertSandboxMessages(sql: Sql, messages: readonly SandboxMessageInput[]): Promise<void> {
  if (messages.length === 0) return;
  await sql.query(
    { name: "herald_insert_sandbox_messages", text: `INSERT INTO herald.sandbox_messages (notification_id, provider_message_id, channel, recipient, subject, title, body, headers, data)
     SELECT m.notification_id, m.provider_message_id, m.channel, m.recipient, m.subject, m.title, m.body, m.headers, m.data
       FROM jsonb_to_recordset($1::jsonb) AS m(notification_id bigint, provider_message_id text, channel text, recipient text,
                                               subject text, title text, body text, headers jsonb, data jsonb)`, values: [
      JSON.stringify(
        messages.map((m) => ({
          // A "send test" from Settings → Providers has no notification behind it.
          notification_id: /^\d{1,18}$/.test(m.notificationId) ? m.notificationId : null,
          provider_message_id: m.providerMessageId,
          channel: m.channel,
          recipient: m.recipient,
          subject: m.subject ?? null,
          title: m.title ?? null,
          body: m.body,
          headers: m.headers ?? null,
          data: m.data ?? null,
        })),
      ),
    ] },
  );
}

export async function listSandboxMessages(
  sql: Sql,
  filter: { to?: string | null; channel?: string | null; limit: number },
): Promise<SandboxMessage[]> {
  const { rows } = await sql.query(
    `SELECT id::text, notification_id::text, provider_message_id, channel, recipient, subject, title, body, headers, data, created_at
       FROM herald.sandbox_messages
      WHERE ($1::text IS NULL OR recipient = $1) AND ($2::text IS NULL OR channel = $2)
      ORDER BY created_at DESC, id DESC
      LIMIT $3`,
    [filter.to ?? null, filter.channel ?? null, filter.limit],
  );
  return rows.map((r) => ({
    id: r.id,
    notificationId: r.notification_id,
    providerMessageId: r.provider_message_id,
    channel: r.channel,
    recipient: r.recipient,
    subject: r.subject,
    title: r.title,
    body: r.body,
    headers: r.headers,
    data: r.data,
    createdAt: r.created_at,
  }));
}
