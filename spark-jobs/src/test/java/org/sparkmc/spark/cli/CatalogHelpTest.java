package org.sparkmc.spark.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;
import org.sparkmc.core.catalog.Catalog;
import org.sparkmc.core.catalog.CatalogEntry;
import org.sparkmc.core.catalog.KernelCatalog;
import org.sparkmc.core.catalog.ModelCatalog;
import org.sparkmc.core.catalog.SmcModelCatalog;
import org.sparkmc.core.consensus.ShardSampler;

/** The help of {@code chains --model}, {@code chains --kernel} and {@code smc --model} lists their catalogs. */
class CatalogHelpTest {

    private static final String[] JOBS = {"chains", "diagnose", "smc", "bn", "lda", "consensus", "generate-glm",
        "generate-lda"};

    @Test
    void chainsHelpListsEveryModelAndKernelWithItsDescription() {
        String help = help("chains");
        assertListsEvery(help, ModelCatalog.CATALOG);
        assertListsEvery(help, KernelCatalog.CATALOG);
        assertTrue(help.contains("class:<class> (your Kernel)") || help.contains("class:<class>(your Kernel)"),
                help);
        assertFalse(help.contains("${"), help);
    }

    /** The help said logistic_regression ran on Pima "by default"; it has no default data nor predictors. */
    @Test
    void chainsHelpPromisesNoDefaultDataForLogisticRegression() {
        String flat = help("chains");
        assertFalse(flat.contains("by default)"), flat);
        assertTrue(flat.contains("logistic_regression (Bayesian logistic regression; set its data and 'predictors' "
                + "as conf/chains-pima.conf does)"), flat);
    }

    @Test
    void smcHelpListsEveryStateSpaceModel() {
        String help = help("smc");
        assertListsEvery(help, SmcModelCatalog.CATALOG);
        assertTrue(help.contains("Default: local-level."), help);
    }

    /** consensus runs a subset of the catalog's kernels (ShardSampler.KERNELS); its help names each of them. */
    @Test
    void consensusHelpNamesEveryShardKernel() {
        String help = help("consensus");
        int at = help.lastIndexOf("--kernel=NAME");
        String kernelHelp = help.substring(at, help.indexOf("--scale=X", at));
        for (String kernel : ShardSampler.KERNELS) {
            assertTrue(KernelCatalog.names().contains(kernel), kernel);
            assertTrue(kernelHelp.matches("(?s).*\\b" + java.util.regex.Pattern.quote(kernel) + "\\b.*"),
                    kernel + " missing from consensus --kernel help: " + kernelHelp);
        }
    }

    /** Every job's help renders every option's text: picocli warns, and prints a raw string, on a lone '%'. */
    @Test
    void everyJobsHelpRendersWithoutAFormatWarning() {
        for (String job : JOBS) {
            BadInputTest.Result r = BadInputTest.runCapturingOut(job, "--help");
            assertEquals(ExitCode.OK, r.code(), job + ": " + r.err());
            assertFalse(r.err().contains("picocli WARN") || r.err().contains("Could not format"), job + ": " + r.err());
        }
        assertTrue(help("lda").contains("take about 5% of the run"), help("lda"));
    }

    /** Picocli may break a line after a URL scheme's colon; no help may split "s3a://" across two lines. */
    @Test
    void noJobsHelpSplitsAUrlScheme() {
        for (String job : JOBS) {
            String help = BadInputTest.runCapturingOut(job, "--help").err();
            assertFalse(help.matches("(?s).*:\\s*\\R\\s*//.*"), job + ":\n" + help);
        }
    }

    /** The check can fail: an entry the help does not list is found missing. */
    @Test
    void anEntryMissingFromTheHelpIsFound() {
        Catalog<Object> more = Catalog.of(new CatalogEntry<>("hmc", "Hamiltonian Monte Carlo", new Object()));
        assertFalse(listsEvery(help("chains"), more));
    }

    private static void assertListsEvery(String help, Catalog<?> catalog) {
        assertTrue(listsEvery(help, catalog), "help should list " + catalog.helpList() + ":\n" + help);
    }

    private static boolean listsEvery(String help, Catalog<?> catalog) {
        String compact = help.replaceAll("\\s+", "");
        return catalog.entries().stream().allMatch(e -> compact.contains((e.name() + "(" + e.description() + ")")
                .replaceAll("\\s+", "")));
    }

    /**
     * The command's help, its lines joined with single spaces. Picocli wraps lines also before a parenthesis, so
     * {@link #listsEvery} compares the texts without their white space.
     */
    private static String help(String command) {
        BadInputTest.Result r = BadInputTest.runCapturingOut(command, "--help");
        assertEquals(ExitCode.OK, r.code());
        return r.err().replaceAll("\\s+", " ");
    }
}
