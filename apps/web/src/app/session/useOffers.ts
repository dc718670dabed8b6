import { mayOffer, type PermissionAction, type PermissionTargetOf } from "@cellfleet/contract";
import { useSession } from "./useSession";

/** Asks the contract's permission table whether the interface offers an action to the signed-in user. */
export type OffersCheck = <A extends PermissionAction>(action: A, target?: PermissionTargetOf<A>) => boolean;

/**
 * The one way pages decide which menus, buttons and editable forms to show: the permission table's
 * `mayOffer` for the signed-in user (the demo user sees what its role may do; the server refuses its saves).
 */
export function useOffers(): OffersCheck {
  const user = useSession();
  return (action, target) => mayOffer(user, action, target);
}
