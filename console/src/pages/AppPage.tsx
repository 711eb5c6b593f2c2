import { useCallback } from "react";
import { useApi } from "../api-context.ts";
import { describeAppStatus } from "../app-status.ts";
import { AsyncView } from "../components/AsyncView.tsx";
import { StatusDot } from "../components/StatusDot.tsx";
import { type TabItem, Tabs } from "../components/Tabs.tsx";
import { type AppTab, navigate } from "../hash-route.ts";
import { useAsync } from "../use-async.ts";
import { ActivityTab } from "./app/ActivityTab.tsx";
import { DeploymentsTab } from "./app/DeploymentsTab.tsx";
import { EnvTab } from "./app/EnvTab.tsx";
import { GraphTab } from "./app/GraphTab.tsx";
import { KeysTab } from "./app/KeysTab.tsx";
import { OverviewTab } from "./app/OverviewTab.tsx";

const TABS: readonly TabItem<AppTab>[] = [
  { key: "overview", label: "Overview" },
  { key: "env", label: "Environment Variables" },
  { key: "keys", label: "API Keys" },
  { key: "deployments", label: "Deployments" },
  { key: "activity", label: "Activity" },
  { key: "graph", label: "Graph" },
];

interface Props {
  name: string;
  tab: AppTab;
}

/** One app: its header and the tabs; the selected tab lives in the URL hash. */
export function AppPage({ name, tab }: Props) {
  const api = useApi();
  const [app, reload] = useAsync(useCallback(() => api.getApp(name), [api, name]));
  return (
    <>
      <p className="breadcrumb">
        <a href="#/apps">Apps</a> / {name}
      </p>
      <AsyncView state={app} what={`app ${name}`} onRetry={reload}>
        {(data) => {
          const status = describeAppStatus(data.status);
          return (
            <>
              <h1 className="app-title">
                {data.name}
                <span className="badge">
                  <StatusDot tone={status.tone} label={status.label} /> {status.label}
                </span>
              </h1>
              <Tabs
                label={`${data.name} sections`}
                tabs={TABS}
                selected={tab}
                onSelect={(key) => navigate({ view: "app", app: name, tab: key })}
              >
                {tab === "overview" ? <OverviewTab app={data} /> : null}
                {tab === "env" ? <EnvTab app={data.name} /> : null}
                {tab === "keys" ? <KeysTab app={data.name} /> : null}
                {tab === "deployments" ? <DeploymentsTab app={data.name} onChanged={reload} /> : null}
                {tab === "activity" ? <ActivityTab app={data} /> : null}
                {tab === "graph" ? <GraphTab app={data.name} /> : null}
              </Tabs>
            </>
          );
        }}
      </AsyncView>
    </>
  );
}
