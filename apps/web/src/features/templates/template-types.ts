import type { inferInput, inferOutput } from "@trpc/tanstack-react-query";
import type { Api } from "../../lib/trpc.ts";

/** One row of `templates.list`: a template with its current version and whether a draft is open. */
export type TemplateSummary = inferOutput<Api["templates"]["list"]>["items"][number];

/** What `templates.get` answers: the template, its versions (the draft first), the draft's body. */
export type TemplateDetail = inferOutput<Api["templates"]["get"]>;

/** A template's settings: name, channels, default category and locale. */
export type Template = TemplateDetail["template"];

/** A version as the history lists it; `version` is null for the draft. */
export type TemplateVersion = TemplateDetail["versions"][number];

/** A version's status: only a draft can be edited, only a published version can be archived. */
export type TemplateVersionStatus = TemplateVersion["status"];

/** A channel a template can carry content for. */
export type TemplateChannel = Template["channels"][number];

/** A version's variables and its content per locale and channel, as the server stores it. */
export type TemplateBody = NonNullable<TemplateDetail["draft"]>;

/** One declared variable, e.g. `data.order_id`, with its type and example. */
export type TemplateVariable = TemplateBody["variables"][number];

/** A variable's type, which decides how its example is read. */
export type VariableType = TemplateVariable["type"];

/** Something wrong with a body: a syntax error, an unknown variable, missing content… */
export type TemplateProblem = inferOutput<Api["templates"]["saveDraft"]>["problems"][number];

/** Where a preview takes its variables from: the declared examples, or a real user's data. */
export type PreviewSource = inferInput<Api["templates"]["preview"]>["source"];

/** What `templates.preview` answers for one channel and locale. */
export type PreviewAnswer = inferOutput<Api["templates"]["preview"]>;

/** A changed field between two versions, with its lines. */
export type FieldDiff = inferOutput<Api["templates"]["diff"]>["fields"][number];

/** One line of a field's diff, numbered on the side(s) it appears on. */
export type DiffLine = FieldDiff["lines"][number];

/** The provider's answer to a test send. */
export type TemplateTestResult = inferOutput<Api["templates"]["sendTest"]>;

/** Where the signed-in member's tests go. */
export type TestDestinations = inferOutput<Api["templates"]["testDestinations"]>;
