/**
 * The page: asks the app's `sayHello` function (src/index.ts or main.go of the app) for a greeting and
 * shows it. `SayHelloDocument` and its types come from src/hello.graphql, checked against the app's schema
 * by `trellis build` / `trellis dev` (src/generated/ is written by them).
 */
import { SayHelloDocument } from "./generated/graphql.ts";
import { graphqlRequest } from "./graphql-request.ts";
import "./style.css";

const form = document.querySelector<HTMLFormElement>("#hello");
const input = document.querySelector<HTMLInputElement>("#name");
const answer = document.querySelector<HTMLParagraphElement>("#answer");

async function sayHello(): Promise<void> {
  if (!answer) return;
  try {
    const data = await graphqlRequest(SayHelloDocument, { name: input?.value || "Trellis" });
    answer.textContent = data.sayHello;
    answer.className = "";
  } catch (e) {
    answer.textContent = (e as Error).message;
    answer.className = "error";
  }
}

form?.addEventListener("submit", (event) => {
  event.preventDefault();
  void sayHello();
});
void sayHello();
