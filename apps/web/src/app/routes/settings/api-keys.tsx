import { Card } from "../../../components/ui/card.tsx";
import { ApiKeysCard } from "../../../features/api-keys/api-keys-card.tsx";
import { CreateApiKeyForm } from "../../../features/api-keys/create-api-key-form.tsx";
import { RequireCapability } from "../../require-capability.tsx";

export function ApiKeysRoute() {
  return (
    <RequireCapability anyOf={["apiKeys.manage"]}>
      <ApiKeysCard />
      <Card title="Create an API key" description="The key is shown once, right after you create it.">
        <CreateApiKeyForm />
      </Card>
    </RequireCapability>
  );
}
