// Its own chunk (see sessionSchema.ts): the only module of the start-up path that imports a zod schema.
export { SessionUserSchema } from "@cellfleet/contract";
