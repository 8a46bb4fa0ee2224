import { useId, useState } from "react";
import { Badge } from "../../components/ui/badge.tsx";
import { Button } from "../../components/ui/button.tsx";
import { ConfirmDialog } from "../../components/ui/confirm-dialog.tsx";
import { channelLabel } from "../../lib/channels.ts";
import { AddLocaleForm } from "./add-locale-form.tsx";
import { EmailFields } from "./email-fields.tsx";
import { localeName } from "./locale-tag.ts";
import { PushFields } from "./push-fields.tsx";
import { SmsFields } from "./sms-fields.tsx";
import { tabIds, TabList } from "./tab-list.tsx";
import { emptyLocaleDraft, hasChannelContent, type LocaleDraft } from "./template-draft.ts";
import type { TemplateChannel } from "./template-types.ts";

type ContentCardProps = {
  content: Record<string, LocaleDraft>;
  locales: string[];
  defaultLocale: string;
  channels: TemplateChannel[];
  locale: string;
  channel: TemplateChannel;
  readOnly: boolean;
  errorFor: (locale: string, channel: TemplateChannel, field: string) => string | undefined;
  onSelectLocale: (locale: string) => void;
  onSelectChannel: (channel: TemplateChannel) => void;
  onChange: (locale: string, value: LocaleDraft) => void;
  onAddLocale: (locale: string) => void;
  onRemoveLocale: (locale: string) => void;
};

/** The copy, one locale and one channel at a time. */
export function ContentCard(props: ContentCardProps) {
  const { content, locales, defaultLocale, channels, locale, channel, readOnly, errorFor } = props;
  const localePrefix = useId();
  const channelPrefix = useId();
  const [removing, setRemoving] = useState<string | null>(null);
  const value = content[locale] ?? emptyLocaleDraft();
  const localeIds = tabIds(localePrefix, locale);
  const channelIds = tabIds(channelPrefix, channel);
  const fieldErrors = (field: string) => errorFor(locale, channel, field);

  return (
    <section className="card" aria-label="Content">
      <TabList
        label="Locales"
        idPrefix={localePrefix}
        tabs={locales.map((tag) => ({
          value: tag,
          label: tag,
          note: tag === defaultLocale && (
            <Badge tone="accent" title="Users whose locale has no copy get this one.">
              default
            </Badge>
          ),
        }))}
        selected={locale}
        onSelect={props.onSelectLocale}
      >
        {!readOnly && <AddLocaleForm existing={locales} onAdd={props.onAddLocale} />}
      </TabList>
      <div role="tabpanel" id={localeIds.panel} aria-labelledby={localeIds.tab} className="template-locale-panel">
        <div className="template-locale-bar">
          <TabList
            label={`Channels in ${locale}`}
            idPrefix={channelPrefix}
            size="sm"
            tabs={channels.map((candidate) => ({
              value: candidate,
              label: channelLabel(candidate),
              note: !hasChannelContent(content[locale], candidate) && <span className="template-tab-empty">empty</span>,
            }))}
            selected={channel}
            onSelect={props.onSelectChannel}
          />
          <span className="template-locale-name">
            {localeName(locale)}
            {!readOnly && locale !== defaultLocale && (
              <Button size="sm" variant="ghost" onClick={() => setRemoving(locale)}>
                Remove locale
                <span className="visually-hidden"> {locale}</span>
              </Button>
            )}
          </span>
        </div>
        <div role="tabpanel" id={channelIds.panel} aria-labelledby={channelIds.tab} className="card-body">
          {channel === "push" && (
            <PushFields
              locale={locale}
              value={value.push}
              readOnly={readOnly}
              errorFor={fieldErrors}
              onChange={(push) => props.onChange(locale, { ...value, push })}
            />
          )}
          {channel === "email" && (
            <EmailFields
              locale={locale}
              value={value.email}
              readOnly={readOnly}
              errorFor={fieldErrors}
              onChange={(email) => props.onChange(locale, { ...value, email })}
            />
          )}
          {channel === "sms" && (
            <SmsFields
              locale={locale}
              value={value.sms}
              readOnly={readOnly}
              errorFor={fieldErrors}
              onChange={(sms) => props.onChange(locale, { ...value, sms })}
            />
          )}
        </div>
      </div>
      <ConfirmDialog
        open={removing !== null}
        title={`Remove ${removing ?? ""}?`}
        confirmLabel="Remove locale"
        onCancel={() => setRemoving(null)}
        onConfirm={() => {
          if (removing) props.onRemoveLocale(removing);
          setRemoving(null);
        }}
      >
        <p>
          {`Its copy for every channel leaves the draft. Once the draft is published, users with this locale get the nearest other locale's copy, or the default (${defaultLocale}).`}
        </p>
      </ConfirmDialog>
    </section>
  );
}
