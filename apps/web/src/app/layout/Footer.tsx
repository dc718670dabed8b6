import Box from "@mui/material/Box";
import Typography from "@mui/material/Typography";
import { useTranslation } from "react-i18next";

/** The footer with the copyright year (spec section 2). */
export function Footer() {
  const { t } = useTranslation();
  return (
    <Box component="footer" sx={{ py: 2, px: 3, textAlign: "center" }}>
      <Typography variant="body2" color="text.secondary">
        {t("footer.copyright", { year: new Date().getFullYear() })}
      </Typography>
    </Box>
  );
}
