import type { DeviceStatus, MapFeature } from "@cellfleet/contract";
import Box from "@mui/material/Box";
import { Map as MapLibreMap, Marker, NavigationControl, type StyleSpecification } from "maplibre-gl";
import "maplibre-gl/dist/maplibre-gl.css";
import { useEffect, useRef, useState } from "react";
import { toBbox } from "./mapStyle";
import { clusterMarker, routerMarker } from "./markers";

/** A viewport: [west, south, east, north] and the whole zoom level the server clusters at. */
export interface Viewport {
  bbox: readonly [number, number, number, number];
  zoom: number;
}

interface MapViewProps {
  style: StyleSpecification | string;
  features: readonly MapFeature[];
  /** Where the fleet is: the map fits it once, when first known. */
  fleetBounds: readonly [number, number, number, number] | null;
  colors: Record<DeviceStatus, string>;
  onViewport: (viewport: Viewport) => void;
  onRouterClick: (id: string) => void;
  /** The text of a cluster's marker (its count and statuses), for screen readers. */
  describeCluster: (feature: Extract<MapFeature, { kind: "cluster" }>) => string;
}

/**
 * The MapLibre map with one HTML marker per feature: the server clusters within 60 px, so a
 * viewport holds a few hundred at most, and markers need no glyphs (the plain style has none),
 * take the keyboard and carry their names for screen readers.
 */
export function MapView({
  style,
  features,
  fleetBounds,
  colors,
  onViewport,
  onRouterClick,
  describeCluster,
}: MapViewProps) {
  const container = useRef<HTMLDivElement>(null);
  const [map, setMap] = useState<MapLibreMap | null>(null);
  const handlers = useRef({ onViewport, onRouterClick });
  handlers.current = { onViewport, onRouterClick };

  useEffect(() => {
    if (!container.current) return;
    const created = new MapLibreMap({
      container: container.current,
      style,
      center: [20, 50],
      zoom: 2,
      attributionControl: { compact: true },
    });
    created.addControl(new NavigationControl({ showCompass: false }), "top-right");
    const report = () =>
      handlers.current.onViewport({
        bbox: [...toBbox(created.getBounds())],
        zoom: Math.floor(created.getZoom()),
      });
    created.on("load", report);
    created.on("moveend", report);
    setMap(created);
    return () => {
      setMap(null);
      created.remove();
    };
  }, [style]);

  const hasFitted = useRef(false);
  useEffect(() => {
    if (!map || !fleetBounds || hasFitted.current) return;
    hasFitted.current = true;
    const [west, south, east, north] = fleetBounds;
    map.fitBounds(
      [
        [west, south],
        [east, north],
      ],
      { padding: 48, maxZoom: 10, duration: 0 },
    );
  }, [map, fleetBounds]);

  useEffect(() => {
    if (!map) return;
    const markers = features.map((feature) => {
      const element =
        feature.kind === "cluster"
          ? clusterMarker(feature, colors, describeCluster(feature), () =>
              map.easeTo({ center: [feature.longitude, feature.latitude], zoom: feature.expansion_zoom }),
            )
          : routerMarker(feature, colors[feature.status], () => handlers.current.onRouterClick(feature.id));
      return new Marker({ element }).setLngLat([feature.longitude, feature.latitude]).addTo(map);
    });
    return () => {
      for (const marker of markers) marker.remove();
    };
  }, [map, features, colors, describeCluster]);

  return <Box ref={container} data-testid="fleet-map" sx={{ position: "absolute", inset: 0 }} />;
}
