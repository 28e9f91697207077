/*
 * Who a signed-in request is, defined once: the session lookup builds these, access checks narrow
 * to one of them, and services take the one they serve (`SignedInAdmin` for every administrative
 * change, which its audit entry names).
 */

/** A signed-in administrator. */
export interface SignedInAdmin {
  role: 'admin';
  sessionId: string;
  adminId: string;
  email: string;
  fullName: string;
  /** Whether the account has its second factor on (REQUIRE_ADMIN_MFA asks for it). */
  mfaEnabled: boolean;
}

/** A signed-in exhibitor. */
export interface SignedInExhibitor {
  role: 'exh';
  sessionId: string;
  exhibitorId: string;
  email: string;
  fullName: string;
  company: string;
}

export type SignedInUser = SignedInAdmin | SignedInExhibitor;
