export { ROLES, RoleSchema, PUBLIC, SIGNED_IN, type Role } from "./access/roles.ts";
export {
  parseRolesDocument,
  capabilitiesOf,
  decideAccess,
  type AccessTable,
  type AccessDecision,
} from "./access/roles-document.ts";
export { plainText, EmailSchema, PasswordSchema, hasControlCharacters } from "./validation/text.ts";
