import { useMutation } from "@tanstack/react-query";
import { useEffect, useMemo, useState } from "react";
import { useTRPC } from "../../lib/trpc.ts";
import type { PreviewAnswer, PreviewSource, TemplateBody, TemplateChannel } from "./template-types.ts";
import { useDebouncedValue } from "../../lib/use-debounced-value.ts";

// Long enough that a word typed is one request, short enough to feel live.
const previewDelayMs = 400;

/** A preview answer with the channel and locale it was asked for. */
export type ShownPreview = { answer: PreviewAnswer; channel: TemplateChannel; locale: string };

/**
 * Renders the editor's unsaved body as it changes, at most once per pause in typing. The last
 * answer stays on screen while the next one renders, and after a failed render.
 * `source` is null while it is incomplete (a real user without an id yet): nothing is sent.
 */
export function useLivePreview({
  templateKey,
  body,
  channel,
  locale,
  source,
}: {
  templateKey: string;
  body: TemplateBody;
  channel: TemplateChannel;
  locale: string;
  source: PreviewSource | null;
}) {
  const trpc = useTRPC();
  const { mutate, error, isPending, reset } = useMutation(trpc.templates.preview.mutationOptions());
  const [shown, setShown] = useState<ShownPreview | null>(null);
  const request = useMemo(() => ({ key: templateKey, body, channel, locale, source }), [templateKey, body, channel, locale, source]);
  const settled = useDebouncedValue(request, previewDelayMs);

  useEffect(() => {
    const { source: settledSource, ...rest } = settled;
    if (!settledSource) {
      reset();
      return;
    }
    // Only the latest call's callbacks run: an answer overtaken by a newer request is dropped.
    mutate({ ...rest, source: settledSource }, { onSuccess: (answer) => setShown({ answer, channel: rest.channel, locale: rest.locale }) });
  }, [settled, mutate, reset]);

  return { shown, error, isUpdating: isPending || request !== settled };
}
