import { describe, expect, it } from "vitest";
import { createProviderRegistry } from "../src/providers/provider-registry.ts";
import { eventually, rest } from "./support/rest.ts";
import { ScriptedProvider } from "./support/scripted-provider.ts";
import { useTestServer } from "./support/test-server.ts";

// Event data written by an attacker, from POST /events through the real workers to the message
// handed to the provider (a scripted provider records it): <script> is escaped in HTML, a CRLF cannot
// start a second mail header, placeholder and Liquid syntax in data stays literal text, and SQL
// in data is sent as written, the users table still there.

const HOSTILE = {
  name: "<script>alert(1)</script><img src=x onerror=alert(2)>",
  ref: "A-1\r\nBcc: victim@example.com\r\n\r\n<b>body</b>",
  note: "{{ user.email }} {% include 'secrets' %} {{ data.ref }}",
  sql: "'); DROP TABLE herald.users; --",
};

describe("hostile event data, end to end", () => {
  const email = new ScriptedProvider("email-scripted", "email");
  const sms = new ScriptedProvider("sms-scripted", "sms");
  const server = useTestServer({ withWorkers: true, providers: () => createProviderRegistry({ email: { primary: email }, sms: { primary: sms } }) });

  it("escapes HTML, keeps the subject on one line and placeholders literal, and sends SQL as text", async () => {
    const admin = await server.apiKey("admin");
    await rest(server.url, "PUT", "/categories/orders", admin, { label: "Orders" });
    const type = await rest(server.url, "PUT", "/notification-types/order.paid", admin, {
      channels: [
        {
          channel: "email",
          category: "orders",
          content: {
            subject: "Order {{ data.ref }} for {{ data.name }}",
            body: "{{ data.note }} / {{ data.sql }}",
            html: "<p>Hi {{ data.name }}</p><p>{{ data.note }}</p><p>{{ data.ref }}</p>",
          },
        },
        { channel: "sms", category: "orders", content: { body: "{{ data.note }} {{ data.sql }}" } },
      ],
    });
    expect(type.status).toBe(201);
    const events = await server.apiKey("events");
    await rest(server.url, "PUT", "/users/u-1", events, { email: "ada@example.com", phone: "+4915112345678" });
    const posted = await rest(server.url, "POST", "/events", events, { eventId: "hostile-1", type: "order.paid", userId: "u-1", data: HOSTILE });
    expect(posted.status).toBe(202);

    await eventually(async () => email.calls.length + sms.calls.length, (n) => n === 2, "both messages sent");
    const sent = email.calls[0]!;

    expect(sent.subject).not.toMatch(/[\r\n]/);
    // Each line break became a space: no header follows the subject.
    expect(sent.subject).toBe(`Order A-1 Bcc: victim@example.com  <b>body</b> for ${HOSTILE.name}`);
    expect(sent.html).not.toContain("<script");
    expect(sent.html).not.toContain("<img");
    expect(sent.html).toContain("&lt;script&gt;alert(1)&lt;/script&gt;");
    expect(sent.html).toContain("<p>{{ user.email }} {% include 'secrets' %} {{ data.ref }}</p>");
    expect(sent.html).not.toContain("ada@example.com");
    expect(sent.body).toBe(`${HOSTILE.note} / ${HOSTILE.sql}`);
    expect(sms.calls[0]!.body).toBe(`${HOSTILE.note} ${HOSTILE.sql}`);

    expect((await server.database.pool.query("SELECT count(*)::int AS n FROM herald.users")).rows[0].n).toBe(1);
  });
});
