package org.sparkmc.spark.arch;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;

import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import java.util.regex.Pattern;
import com.tngtech.archunit.lang.ArchRule;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The layering ARCHITECTURE.md describes, checked on the compiled classes: {@code core} never uses Spark, Scala or
 * Hadoop, the shared engine ({@code run}, {@code sync}, {@code io}) never uses a job's package, and the samplers
 * never use the catalog of names ({@code org.sparkmc.core.catalog}), which builds them: a sampler is handed its
 * kernel or model, it never looks one up by name. ({@code org.sparkmc.core.consensus} is no sampler in this sense:
 * like a job, it builds each shard's kernel from the name the user gave.)
 */
class LayeringTest {
    private static final String[] JOBS = {"org.sparkmc.spark.chains..", "org.sparkmc.spark.lda..",
        "org.sparkmc.spark.smc..", "org.sparkmc.spark.bn..", "org.sparkmc.spark.diagnose..",
        "org.sparkmc.spark.consensus.."};
    /** The samplers' packages: everything in {@code core} but the catalog and consensus (a user of both). */
    static final String[] SAMPLERS = {"org.sparkmc.core", "org.sparkmc.core.random..", "org.sparkmc.core.variate..",
        "org.sparkmc.core.importance..", "org.sparkmc.core.bayesnet..", "org.sparkmc.core.mcmc..",
        "org.sparkmc.core.model..", "org.sparkmc.core.rjmcmc..", "org.sparkmc.core.smc..", "org.sparkmc.core.lda..",
        "org.sparkmc.core.diagnostics.."};
    private static final Pattern TEST_JAR = Pattern.compile(".*-tests\\.jar!/.*");
    private static JavaClasses classes;

    @BeforeAll
    static void importClasses() {
        // Test classes are left out both as folders and, as core's reach spark-jobs in `mvn verify`, as a test jar.
        classes = new ClassFileImporter().withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS)
                .withImportOption(location -> !location.matches(TEST_JAR)).importPackages("org.sparkmc");
        assertFalse(classes.stream().noneMatch(c -> c.getPackageName().startsWith("org.sparkmc.core")),
                "core's classes must be on the classpath");
    }

    private static final ArchRule CORE_HAS_NO_SPARK = noClasses().that().resideInAPackage("org.sparkmc.core..")
            .should().dependOnClassesThat().resideInAnyPackage("org.apache.spark..", "scala..", "org.apache.hadoop..",
                    "org.sparkmc.spark..");

    private static final ArchRule ENGINE_KNOWS_NO_JOB = noClasses().that()
            .resideInAnyPackage("org.sparkmc.spark.run..", "org.sparkmc.spark.sync..", "org.sparkmc.spark.io..")
            .should().dependOnClassesThat().resideInAnyPackage(JOBS);

    private static final ArchRule SAMPLERS_KNOW_NO_CATALOG = noClasses().that().resideInAnyPackage(SAMPLERS)
            .should().dependOnClassesThat().resideInAPackage("org.sparkmc.core.catalog..");

    @Test
    void coreNeverUsesSparkScalaOrHadoop() {
        CORE_HAS_NO_SPARK.check(classes);
    }

    @Test
    void theEngineNeverUsesAJob() {
        ENGINE_KNOWS_NO_JOB.check(classes);
    }

    @Test
    void theSamplersNeverUseTheCatalog() {
        SAMPLERS_KNOW_NO_CATALOG.check(classes);
    }

    /** Every package of {@code core} is either a sampler's, the catalog, or consensus: a new one must be placed. */
    @Test
    void everyCorePackageIsPlaced() {
        for (com.tngtech.archunit.core.domain.JavaClass c : classes) {
            String p = c.getPackageName();
            if (!p.startsWith("org.sparkmc.core")) {
                continue;
            }
            boolean sampler = java.util.Arrays.stream(SAMPLERS).anyMatch(s -> s.endsWith("..")
                    ? p.equals(s.substring(0, s.length() - 2)) || p.startsWith(s.substring(0, s.length() - 1))
                    : p.equals(s));
            org.junit.jupiter.api.Assertions.assertTrue(sampler || p.startsWith("org.sparkmc.core.catalog")
                    || p.startsWith("org.sparkmc.core.consensus"), c.getName() + " is in no layer of LayeringTest");
        }
    }

    /** The samplers' rule fails on a class in a sampler's package that uses the catalog ({@code LayeringProbe}). */
    @Test
    void aSamplerUsingTheCatalogFails() {
        JavaClasses probe = new ClassFileImporter().importClasses(org.sparkmc.core.mcmc.LayeringProbe.class);
        assertThrows(AssertionError.class, () -> SAMPLERS_KNOW_NO_CATALOG.check(probe));
    }

    /** The rules can fail: the jobs do use the engine, so the reverse rule is broken. */
    @Test
    void aRuleThatTheCodeBreaksFails() {
        ArchRule reversed = noClasses().that().resideInAnyPackage(JOBS).should().dependOnClassesThat()
                .resideInAPackage("org.sparkmc.spark.run..");
        assertThrows(AssertionError.class, () -> reversed.check(classes));
    }
}
