import { describeSmsCount } from "./sms-count.ts";

/** A rendered SMS as a phone shows it, with what it costs in segments. */
export function SmsPreview({ sms }: { sms: { body: string } }) {
  return (
    <div className="template-sms-preview">
      <p className="template-sms-bubble">{sms.body}</p>
      <p className="template-sms-count">{describeSmsCount(sms.body)}</p>
    </div>
  );
}
