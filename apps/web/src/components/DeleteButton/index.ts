export { DeleteButton } from "./DeleteButton";
