package org.sparkmc.spark.arch;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;

import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import com.tngtech.archunit.lang.ArchRule;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The layering ARCHITECTURE.md describes, checked on the compiled classes: {@code core} never uses Spark, Scala or
 * Hadoop, and the shared engine ({@code run}, {@code sync}, {@code io}) never uses a job's package.
 */
class LayeringTest {
    private static final String[] JOBS = {"org.sparkmc.spark.chains..", "org.sparkmc.spark.lda..",
        "org.sparkmc.spark.smc..", "org.sparkmc.spark.bn..", "org.sparkmc.spark.diagnose..",
        "org.sparkmc.spark.consensus.."};
    private static JavaClasses classes;

    @BeforeAll
    static void importClasses() {
        classes = new ClassFileImporter().withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS)
                .importPackages("org.sparkmc");
        assertFalse(classes.stream().noneMatch(c -> c.getPackageName().startsWith("org.sparkmc.core")),
                "core's classes must be on the classpath");
    }

    private static final ArchRule CORE_HAS_NO_SPARK = noClasses().that().resideInAPackage("org.sparkmc.core..")
            .should().dependOnClassesThat().resideInAnyPackage("org.apache.spark..", "scala..", "org.apache.hadoop..",
                    "org.sparkmc.spark..");

    private static final ArchRule ENGINE_KNOWS_NO_JOB = noClasses().that()
            .resideInAnyPackage("org.sparkmc.spark.run..", "org.sparkmc.spark.sync..", "org.sparkmc.spark.io..")
            .should().dependOnClassesThat().resideInAnyPackage(JOBS);

    @Test
    void coreNeverUsesSparkScalaOrHadoop() {
        CORE_HAS_NO_SPARK.check(classes);
    }

    @Test
    void theEngineNeverUsesAJob() {
        ENGINE_KNOWS_NO_JOB.check(classes);
    }

    /** The rules can fail: the jobs do use the engine, so the reverse rule is broken. */
    @Test
    void aRuleThatTheCodeBreaksFails() {
        ArchRule reversed = noClasses().that().resideInAnyPackage(JOBS).should().dependOnClassesThat()
                .resideInAPackage("org.sparkmc.spark.run..");
        assertThrows(AssertionError.class, () -> reversed.check(classes));
    }
}
