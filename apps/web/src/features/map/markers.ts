import { DEVICE_STATUSES, type DeviceStatus, type MapFeature } from "@cellfleet/contract";

type Cluster = Extract<MapFeature, { kind: "cluster" }>;
type Router = Extract<MapFeature, { kind: "router" }>;

/** The marker's diameter in px: grows with the count's order of magnitude. */
function sizeOf(count: number): number {
  return Math.round(30 + 8 * Math.min(4, Math.log10(Math.max(1, count))));
}

/**
 * A cluster as a button: a ring split by its routers' statuses (worst first), the count inside. A
 * click (or Enter) zooms to where it opens.
 */
export function clusterMarker(
  cluster: Cluster,
  colors: Record<DeviceStatus, string>,
  label: string,
  onOpen: () => void,
): HTMLButtonElement {
  const order: DeviceStatus[] = ["critical", "warning", "pending", "online"];
  let start = 0;
  const stops: string[] = [];
  for (const status of order.filter((name) => DEVICE_STATUSES.includes(name))) {
    const share = (cluster.statuses[status] / Math.max(1, cluster.count)) * 100;
    if (share <= 0) continue;
    stops.push(`${colors[status]} ${start}% ${start + share}%`);
    start += share;
  }
  const size = sizeOf(cluster.count);
  const button = document.createElement("button");
  button.type = "button";
  button.className = "fleet-map-cluster";
  button.dataset.testid = "map-cluster";
  button.setAttribute("aria-label", label);
  button.title = label;
  button.textContent =
    cluster.count >= 10_000 ? `${Math.round(cluster.count / 1000)}k` : String(cluster.count);
  Object.assign(button.style, {
    width: `${size}px`,
    height: `${size}px`,
    borderRadius: "50%",
    border: "none",
    padding: "0",
    cursor: "pointer",
    font: "600 12px/1 Roboto, Helvetica, Arial, sans-serif",
    color: "#1d1d1d",
    background: `radial-gradient(circle, #ffffff 0 58%, transparent 59%), conic-gradient(${stops.join(", ") || "#9e9e9e 0 100%"})`,
    boxShadow: "0 1px 4px rgba(0, 0, 0, 0.35)",
  });
  button.addEventListener("click", (event) => {
    event.stopPropagation();
    onOpen();
  });
  return button;
}

/** A lone router as a button: a dot of its status colour, named by its ident; a click opens it. */
export function routerMarker(router: Router, color: string, onOpen: () => void): HTMLButtonElement {
  const button = document.createElement("button");
  button.type = "button";
  button.className = "fleet-map-router";
  button.dataset.testid = "map-router";
  button.dataset.status = router.status;
  button.setAttribute("aria-label", router.ident);
  button.title = router.ident;
  Object.assign(button.style, {
    width: "16px",
    height: "16px",
    borderRadius: "50%",
    border: "2px solid #ffffff",
    padding: "0",
    cursor: "pointer",
    background: color,
    boxShadow: "0 1px 3px rgba(0, 0, 0, 0.45)",
  });
  button.addEventListener("click", (event) => {
    event.stopPropagation();
    onOpen();
  });
  return button;
}
