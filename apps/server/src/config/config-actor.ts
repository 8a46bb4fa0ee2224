/** Who changes configuration, for the audit log: a signed-in member, or an admin API key over REST. */
export interface ConfigActor {
  memberId: string | null;
  /** A member's email, or "api_key:hk_ab12…". */
  label: string;
  ip: string | null;
}
