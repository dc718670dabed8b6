import type { DomainDetail, User } from "@cellfleet/contract";
import AddIcon from "@mui/icons-material/Add";
import Button from "@mui/material/Button";
import Card from "@mui/material/Card";
import Stack from "@mui/material/Stack";
import Table from "@mui/material/Table";
import TableBody from "@mui/material/TableBody";
import TableCell from "@mui/material/TableCell";
import TableContainer from "@mui/material/TableContainer";
import TableHead from "@mui/material/TableHead";
import TableRow from "@mui/material/TableRow";
import Typography from "@mui/material/Typography";
import { useQuery } from "@tanstack/react-query";
import { useTranslation } from "react-i18next";
import { Link, useNavigate, useParams } from "react-router";
import { formatDateTime } from "../../../components/formatDate";
import { PageTitle } from "../../../components/PageTitle";
import { QueryState } from "../../../components/QueryState";
import { BlockedChip } from "../shared/personColumns";
import { DomainForm } from "./DomainForm";
import { domainQueryOptions } from "./domains.queries";

function AdminsCard({ domain }: { domain: DomainDetail }) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const open = (admin: User) => navigate(`/domain/${domain._id}/admins/${admin._id}`);
  return (
    <Card variant="outlined">
      <Stack direction="row" sx={{ alignItems: "center", px: 2, py: 1.5 }}>
        <Typography variant="h6" component="h2" sx={{ flexGrow: 1 }}>
          {t("accounting.domains.admins")}
        </Typography>
        <Button startIcon={<AddIcon />} component={Link} to={`/domain/${domain._id}/admins/new`}>
          {t("accounting.domains.addAdmin")}
        </Button>
      </Stack>
      {domain.admins.length === 0 ? (
        <Typography color="text.secondary" sx={{ px: 2, pb: 2 }}>
          {t("accounting.domains.noAdmins")}
        </Typography>
      ) : (
        <TableContainer>
          <Table size="small" data-testid="domain-admins">
            <TableHead>
              <TableRow>
                <TableCell>{t("accounting.fields.username")}</TableCell>
                <TableCell>{t("accounting.fields.fullName")}</TableCell>
                <TableCell>{t("accounting.fields.email")}</TableCell>
                <TableCell>{t("accounting.fields.lastLogin")}</TableCell>
                <TableCell>{t("accounting.fields.blocked")}</TableCell>
              </TableRow>
            </TableHead>
            <TableBody>
              {domain.admins.map((admin) => (
                <TableRow key={admin._id} hover onClick={() => open(admin)} sx={{ cursor: "pointer" }}>
                  <TableCell>{admin.username}</TableCell>
                  <TableCell>{admin.full_name}</TableCell>
                  <TableCell>{admin.email ?? "—"}</TableCell>
                  <TableCell>{formatDateTime(admin.last_login)}</TableCell>
                  <TableCell>
                    <BlockedChip isBlocked={admin.blocked} />
                  </TableCell>
                </TableRow>
              ))}
            </TableBody>
          </Table>
        </TableContainer>
      )}
    </Card>
  );
}

/** /domain/{domain_id}: the domain's fields and its admins. */
export function DomainPage() {
  const { domain_id: id = "" } = useParams();
  const query = useQuery(domainQueryOptions(id));
  return (
    <QueryState query={query}>
      {(domain) => (
        <Stack spacing={3}>
          <PageTitle>{domain.name}</PageTitle>
          <DomainForm key={domain._id} domain={domain} />
          <AdminsCard domain={domain} />
        </Stack>
      )}
    </QueryState>
  );
}

/** /domains/new: a new domain; its page opens once it is created. */
export function DomainNewPage() {
  const { t } = useTranslation();
  return (
    <>
      <PageTitle>{t("routes.domainNew")}</PageTitle>
      <DomainForm domain={null} />
    </>
  );
}
