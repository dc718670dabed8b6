import path from "node:path";
import { describe, expect, it } from "vitest";
import { ConfigError, DEV_LICENSE_PUBLIC_KEY, loadConfig } from "./config";

describe("loadConfig", () => {
  it("fills every default from an empty environment", () => {
    const config = loadConfig({}, "/srv/cellfleet");
    expect(config).toEqual({
      port: 3000,
      host: "0.0.0.0",
      dataDir: path.resolve("/srv/cellfleet", "data"),
      databaseUrl: undefined,
      databasePoolSize: 10,
      mqttPort: 1883,
      isMqttPortDefault: true,
      mqttUrl: undefined,
      mqttAuthSecret: undefined,
      metricsToken: undefined,
      mqttSharedSubscription: false,
      mqttTls: undefined,
      mqttDynsec: false,
      mqttClientId: undefined,
      busUrl: undefined,
      busPrefix: "cellfleet",
      jobsWorker: true,
      deviceSide: true,
      rootPassword: undefined,
      simulate: 25,
      logLevel: "info",
      sessionTtlHours: 12,
      loginRateLimit: 20,
      smtp: null,
      mapStyleUrl: null,
      tunnel: {
        hostKeyFile: path.resolve("/srv/cellfleet", "data", "tunnel_host_ed25519_key"),
        sshHost: "localhost",
        sshPort: 2222,
        web: {
          hostPattern: null,
          scheme: "http",
          consoleHost: "localhost",
          ports: [20080, 20179],
          nodeHost: "localhost",
        },
      },
      webauthn: { origin: "http://localhost:3000", rpId: "localhost" },
      publicUrl: "http://localhost:3000",
      s3: null,
      fileUrlTtlMinutes: 15,
      firmwareFetch: { maxBytes: 1024 * 1024 * 1024, timeoutMs: 30_000 },
      mqttPublicUrls: undefined,
      historyRetentionDays: 90,
      historyRawDays: 7,
      notifications: { telegramApiUrl: "https://api.telegram.org", webhookAllowPrivate: false },
      licenses: {
        serverUrl: "http://127.0.0.1:3400",
        publicKeys: [DEV_LICENSE_PUBLIC_KEY],
        unlicensedDeviceLimit: 0,
      },
    });
  });

  it("reads LICENSE_PUBLIC_KEYS as a list of Ed25519 keys and refuses anything else", () => {
    const second = "MCowBQYDK2VwAyEA7aOyaXV/lDasLGUkcST5KFywhkZMi5Xid9KHlaws0kQ=";
    expect(
      loadConfig({
        LICENSE_PUBLIC_KEYS: `${DEV_LICENSE_PUBLIC_KEY}, ${second}`,
        LICENSE_SERVER_URL: "https://l.example.com/",
      }).licenses,
    ).toEqual({
      serverUrl: "https://l.example.com",
      publicKeys: [DEV_LICENSE_PUBLIC_KEY, second],
      unlicensedDeviceLimit: 0,
    });
    expect(() => loadConfig({ LICENSE_PUBLIC_KEYS: "bm90IGEga2V5" })).toThrow(
      /LICENSE_PUBLIC_KEYS.*not an Ed25519/,
    );
    expect(() => loadConfig({ UNLICENSED_DEVICE_LIMIT: "-1" })).toThrow(/UNLICENSED_DEVICE_LIMIT/);
  });

  it("reads MQTT_PUBLIC_URL as a list of mqtt:// and mqtts:// addresses, and refuses anything else", () => {
    expect(
      loadConfig({ MQTT_PUBLIC_URL: "mqtt://fleet.example.com:1883, mqtts://fleet.example.com:8883" })
        .mqttPublicUrls,
    ).toEqual(["mqtt://fleet.example.com:1883", "mqtts://fleet.example.com:8883"]);
    for (const bad of [
      "http://fleet.example.com",
      "mqtt://user:pw@fleet.example.com",
      "mqtt://host/path",
      ",",
      "nonsense",
    ]) {
      expect(() => loadConfig({ MQTT_PUBLIC_URL: bad })).toThrow(/MQTT_PUBLIC_URL/);
    }
  });

  it("reads TUNNEL_WEB_HOST and TUNNEL_WEB_PORTS, and refuses a host that is not a wildcard or a range backwards", () => {
    const config = loadConfig({
      TUNNEL_WEB_HOST: "*.Tunnel.example.com",
      TUNNEL_WEB_PORTS: "30000-30009",
      PUBLIC_URL: "https://console.example.com",
    });
    expect(config.tunnel.web).toEqual({
      hostPattern: "*.tunnel.example.com",
      scheme: "https",
      consoleHost: "console.example.com",
      ports: [30000, 30009],
      nodeHost: "console.example.com",
    });
    expect(loadConfig({ TUNNEL_SSH_HOST: "node-a.internal" }).tunnel.web.nodeHost).toBe("node-a.internal");
    expect(
      loadConfig({ TUNNEL_SSH_HOST: "node-a.internal", TUNNEL_WEB_NODE_HOST: "10.0.0.5" }).tunnel.web
        .nodeHost,
    ).toBe("10.0.0.5");
    expect(() => loadConfig({ TUNNEL_WEB_HOST: "tunnel.example.com" })).toThrow(/TUNNEL_WEB_HOST/);
    expect(() => loadConfig({ TUNNEL_WEB_PORTS: "30009-30000" })).toThrow(/TUNNEL_WEB_PORTS/);
    expect(() => loadConfig({ TUNNEL_WEB_PORTS: "80" })).toThrow(/TUNNEL_WEB_PORTS/);
  });

  it("reads the history settings and refuses raw days beyond the retention", () => {
    const config = loadConfig({ HISTORY_RETENTION_DAYS: "30", HISTORY_RAW_DAYS: "3" });
    expect([config.historyRetentionDays, config.historyRawDays]).toEqual([30, 3]);
    expect(() => loadConfig({ HISTORY_RETENTION_DAYS: "5", HISTORY_RAW_DAYS: "7" })).toThrow(
      /HISTORY_RAW_DAYS/,
    );
    expect(() => loadConfig({ HISTORY_RETENTION_DAYS: "0" })).toThrow(/HISTORY_RETENTION_DAYS/);
  });

  it("reads S3_URL and FILE_URL_TTL_MINUTES", () => {
    const config = loadConfig({
      S3_URL: "http://minio:minio-secret@127.0.0.1:9000/cellfleet?region=eu-west-1",
      FILE_URL_TTL_MINUTES: "5",
    });
    expect(config.s3).toMatchObject({
      endpoint: "http://127.0.0.1:9000",
      bucket: "cellfleet",
      region: "eu-west-1",
      credentials: { accessKeyId: "minio", secretAccessKey: "minio-secret" },
    });
    expect(config.fileUrlTtlMinutes).toBe(5);
    expect(() => loadConfig({ FILE_URL_TTL_MINUTES: "1441" })).toThrow(/FILE_URL_TTL_MINUTES/);
  });

  it("names a bad S3_URL without showing its secret, even one holding '/' or '@'", () => {
    const attempt = () => loadConfig({ S3_URL: "https://AKIA1:se/cr@et@s3.example.com" });
    expect(attempt).toThrow(ConfigError);
    expect(attempt).toThrow(/S3_URL=\(hidden: holds credentials\): must be a URL/);
    expect(attempt).not.toThrow(/se\/cr|cr@et|AKIA1/);
    expect(() => loadConfig({ S3_URL: "ftp://s3.example.com/bucket" })).toThrow(
      /S3_URL="ftp:\/\/s3.example.com\/bucket": must start/,
    );
  });

  it("reads the SMTP settings, hiding SMTP_PASSWORD in errors", () => {
    const config = loadConfig({
      SMTP_HOST: "mail.example.com",
      SMTP_PORT: "465",
      SMTP_USER: "bot",
      SMTP_PASSWORD: "pw",
      PUBLIC_URL: "https://cf.example.com/",
    });
    expect(config.smtp).toEqual({
      url: undefined,
      host: "mail.example.com",
      port: 465,
      user: "bot",
      password: "pw",
      from: "Cellfleet <no-reply@localhost>",
    });
    expect(config.publicUrl).toBe("https://cf.example.com");
    expect(() => loadConfig({ SMTP_URL: "http://x", SMTP_PASSWORD: "secret-pw" })).toThrow(/SMTP_URL/);
  });

  it("reads MAP_STYLE_URL, unset by default, and refuses one that is no http(s) URL", () => {
    expect(loadConfig({}).mapStyleUrl).toBeNull();
    expect(loadConfig({ MAP_STYLE_URL: "https://tiles.example.com/styles/liberty" }).mapStyleUrl).toBe(
      "https://tiles.example.com/styles/liberty",
    );
    expect(() => loadConfig({ MAP_STYLE_URL: "file:///etc/passwd" })).toThrow(/MAP_STYLE_URL/);
  });

  it("reads the variables it is given", () => {
    const config = loadConfig(
      {
        PORT: "8080",
        DATA_DIR: "/var/lib/cellfleet",
        DATABASE_URL: "postgres://cf@db:5432/cellfleet",
        DATABASE_POOL_SIZE: "4",
        BUS_URL: "nats://bus:4222",
        JOBS_WORKER: "0",
        DEVICE_SIDE: "0",
        SIMULATE: "0",
        LOG_LEVEL: "debug",
        SESSION_TTL_HOURS: "1.5",
        LOGIN_RATE_LIMIT: "5",
        CELLFLEET_ROOT_PASSWORD: "secret-root",
      },
      "/ignored",
    );
    expect(config).toMatchObject({
      port: 8080,
      dataDir: "/var/lib/cellfleet",
      databaseUrl: "postgres://cf@db:5432/cellfleet",
      databasePoolSize: 4,
      busUrl: "nats://bus:4222",
      jobsWorker: false,
      deviceSide: false,
      simulate: 0,
      logLevel: "debug",
      sessionTtlHours: 1.5,
      loginRateLimit: 5,
      rootPassword: "secret-root",
    });
  });

  it("reads BUS_PREFIX, one subject token, and refuses anything a NATS subject or Redis channel would misread", () => {
    expect(loadConfig({ BUS_PREFIX: "cellfleet-prod_2" }).busPrefix).toBe("cellfleet-prod_2");
    for (const bad of ["a b", "cf.>", "cf.*", "cf.prod", "x".repeat(65)])
      expect(() => loadConfig({ BUS_PREFIX: bad }), bad).toThrow(/BUS_PREFIX=/);
  });

  it("tells an explicit MQTT_PORT from the default one", () => {
    expect(loadConfig({ MQTT_PORT: "1883" }).isMqttPortDefault).toBe(false);
    expect(loadConfig({ MQTT_PORT: "2883" })).toMatchObject({ mqttPort: 2883, isMqttPortDefault: false });
    expect(loadConfig({ MQTT_PORT: " " })).toMatchObject({ mqttPort: 1883, isMqttPortDefault: true });
  });

  it("treats blank variables as unset", () => {
    expect(loadConfig({ PORT: "", DATABASE_URL: " " }).port).toBe(3000);
  });

  it("refuses invalid values with a ConfigError naming each variable", () => {
    const attempt = () =>
      loadConfig({ PORT: "eighty", DATABASE_URL: "mysql://x", DATABASE_POOL_SIZE: "0", LOG_LEVEL: "loud" });
    expect(attempt).toThrow(ConfigError);
    expect(attempt).toThrow(/PORT="eighty"/);
    expect(attempt).toThrow(/DATABASE_URL="mysql:\/\/x"/);
    expect(attempt).toThrow(/DATABASE_POOL_SIZE="0"/);
    expect(attempt).toThrow(/LOG_LEVEL="loud"/);
  });

  it("never repeats a secret in the error", () => {
    const attempt = () =>
      loadConfig({ CELLFLEET_ROOT_PASSWORD: "p".repeat(300), DATABASE_URL: "mysql://cf:s3cret@db/x" });
    expect(attempt).toThrow(/CELLFLEET_ROOT_PASSWORD=\(hidden\)/);
    expect(attempt).toThrow(/mysql:\/\/cf:\*\*\*@db/);
    expect(attempt).not.toThrow(/s3cret|ppppp/);
  });
});
