import { useMutation, useQueryClient } from "@tanstack/react-query";
import { useState } from "react";
import { useNavigate } from "react-router";
import { Button } from "../../components/ui/button.tsx";
import { useTRPC } from "../../lib/trpc.ts";
import { ModalDialog } from "../../components/ui/modal-dialog.tsx";
import { TemplateSettingsForm, type TemplateSettings } from "./template-settings-form.tsx";

const blank: TemplateSettings = { key: "", name: "", channels: ["email"], defaultCategory: null, defaultLocale: "en" };

/** Creates a template with an empty draft and opens it in the editor. */
export function NewTemplateButton({ variant = "primary" }: { variant?: "primary" | "secondary" }) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const navigate = useNavigate();
  const create = useMutation(
    trpc.templates.create.mutationOptions({
      onSuccess: () => queryClient.invalidateQueries({ queryKey: trpc.templates.list.pathKey() }),
    }),
  );
  const [open, setOpen] = useState(false);

  return (
    <>
      <Button
        variant={variant}
        onClick={() => {
          create.reset();
          setOpen(true);
        }}
      >
        New template
      </Button>
      <ModalDialog
        open={open}
        title="New template"
        description="It starts as an empty draft: write its content, preview it, then publish version 1."
        busy={create.isPending}
        onClose={() => setOpen(false)}
      >
        <TemplateSettingsForm
          initial={blank}
          isNew
          submitLabel="Create template"
          pending={create.isPending}
          error={create.error}
          onCancel={() => setOpen(false)}
          onSubmit={(settings) =>
            create.mutate(settings, { onSuccess: ({ key }) => navigate(`/templates/${encodeURIComponent(key)}`) })
          }
        />
      </ModalDialog>
    </>
  );
}
