package org.sparkmc.spark.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;
import org.junit.jupiter.params.provider.ValueSource;
import org.sparkmc.spark.LoggedLines;
import org.sparkmc.spark.SparkTestBase;
import org.sparkmc.spark.TestPaths;

/** Bad input exits with code 2, one message that says what and where, and no output directory. */
public class BadInputTest extends SparkTestBase {

    @TempDir
    Path tmp;

    static Stream<Arguments> cases() {
        String bimodal = TestPaths.conf("chains-bimodal.conf").toString();
        String eightSchools = TestPaths.projectRoot().resolve("data/eight_schools/eight_schools.json").toString();
        String pima = TestPaths.projectRoot().resolve("data/pima/pima.json").toString();
        String galaxy = TestPaths.projectRoot().resolve("data/galaxy/galaxy.json").toString();
        return Stream.of(
                Arguments.of("unknown job", new String[] {"chianz"}, "Unmatched argument"),
                Arguments.of("no job", new String[] {}, "name a job"),
                Arguments.of("unknown model", new String[] {"chains", "--model", "bimodel"}, "unknown model 'bimodel'"),
                Arguments.of("unknown kernel", new String[] {"chains", "--kernel", "hmc"}, "unknown kernel 'hmc'"),
                Arguments.of("missing kernel class", new String[] {"chains", "--kernel", "class:com.example.NoKernel"},
                        "--kernel class 'com.example.NoKernel' is not on the classpath"),
                Arguments.of("kernel class of the wrong type", new String[] {"chains", "--kernel",
                    "cycle(rwm, class:java.lang.String)"}, "--kernel class 'java.lang.String' does not implement"),
                // every task failed after Spark started ("a saved kernel state has 43416 numbers more than expected")
                Arguments.of("a trans-dimensional model with the default kernel", new String[] {"chains", "--model",
                    "rj_normal_mixture", "--data", galaxy}, "kernel 'rwm' moves a position of fixed length, but model "
                        + "rj_normal_mixture is trans-dimensional"),
                Arguments.of("a trans-dimensional model with slice", new String[] {"chains", "--model", "rj_two_means",
                    "--data", galaxy, "--param", "sigma=3", "--kernel", "slice"}, "use --kernel rjmcmc"),
                // the labels never moved: acceptance 0, or slice's "acceptance 1.000" at the chains' random starts
                Arguments.of("mixture labels with the default kernel", new String[] {"chains", "--model", "gmm",
                    "--warmup", "2", "--round-size", "2", "--max-rounds", "1"}, "kernel 'rwm' proposes continuous "
                        + "moves, but model gmm has coordinates that are component labels 0 to 3"),
                Arguments.of("collapsed mixture labels with slice", new String[] {"chains", "--model", "gmm_collapsed",
                    "--kernel", "slice", "--warmup", "2", "--round-size", "2", "--max-rounds", "1"},
                        "use --kernel gibbs or gibbs-random"),
                // 1e400 is read as infinity, which is positive: the message said "must be positive"
                Arguments.of("an infinite mixture weight", new String[] {"chains", "--kernel",
                    "mixture(1e400*rwm,slice)"}, "kernel 'mixture(1e400*rwm,slice)': mixture weight '1e400' is "
                        + "Infinity; weights must be finite numbers > 0"),
                // the message named neither the --param nor the model
                Arguments.of("an Ising image of the wrong size", new String[] {"chains", "--model", "ising_denoising",
                    "--kernel", "gibbs", "--param", "height=2", "--param", "width=3", "--param", "noisy=[1,2,3]"},
                        "--param noisy=[1,2,3]: model 'ising_denoising': model parameter 'noisy' has 3 values, "
                            + "expected height × width = 6"),
                Arguments.of("zero chains", new String[] {"chains", "--chains", "0"}, "--chains must be ≥ 2 for R-hat, is 0"),
                Arguments.of("one chain", new String[] {"chains", "--chains", "1"}, "--chains must be ≥ 2 for R-hat, is 1"),
                Arguments.of("negative round size", new String[] {"chains", "--round-size", "-5"},
                        "--round-size must be ≥ 1, is -5"),
                Arguments.of("negative partitions", new String[] {"chains", "--partitions", "-2"},
                        "--partitions must be ≥ 0 (0: Spark's default parallelism), is -2"),
                Arguments.of("max-rounds near the int limit", new String[] {"chains", "--max-rounds", "2147483647"},
                        "round-size × max-rounds, the sampling draws per chain at most, must be ≤ 2147483639 (the "
                            + "longest array a JVM allocates), is 2147483647000; lower --max-rounds"),
                Arguments.of("a round longer than an array (it died with 'Requested array size exceeds VM limit')",
                    new String[] {"chains", "--round-size", "2147483647", "--max-rounds", "1"}, "must be ≤ "
                        + "2147483639 (the longest array a JVM allocates), is 2147483647"),
                Arguments.of("warm-up near the int limit", new String[] {"chains", "--warmup", "2147483647",
                    "--round-size", "1", "--max-rounds", "10"}, "warm-up and sampling rounds together must be ≤ "
                        + "2147483647"),
                Arguments.of("non-numeric count", new String[] {"chains", "--chains", "many"}, "'many'"),
                Arguments.of("driver draws neither a number nor auto", new String[] {"chains", "--conf", bimodal,
                    "--driver-draws-limit", "lots"}, "--driver-draws-limit must be a whole number or auto, is 'lots'"),
                Arguments.of("unknown sync-via", new String[] {"chains", "--conf", bimodal, "--sync-via", "barrier"},
                        "--sync-via must be auto, relay or jobs, is 'barrier'"),
                Arguments.of("relayed rounds with a checkpoint", new String[] {"chains", "--conf", bimodal,
                    "--sync-via", "relay", "--checkpoint", "/nonexistent/checkpoint"}, "--sync-via relay runs every "
                        + "round in one Spark stage and cannot save each round's draws to --checkpoint"),
                Arguments.of("relayed rounds past the driver's draws", new String[] {"chains", "--conf", bimodal,
                    "--sync-via", "relay", "--driver-draws-limit", "1000"}, "--sync-via relay keeps every draw on the "
                        + "driver, but the run may make 160000 draws of each of 3 rows (the parameters and lp__), more "
                        + "than --driver-draws-limit 1000 in all"),
                Arguments.of("bad scale", new String[] {"chains", "--scale", "0"},
                        "--scale must be a finite number > 0, is 0"),
                Arguments.of("no thread", new String[] {"chains", "--threads", "0"}, "--threads must be ≥ 1, is 0"),
                Arguments.of("missing config", new String[] {"chains", "--conf", "/nonexistent/x.conf"},
                        "/nonexistent/x.conf"),
                Arguments.of("missing data", new String[] {"chains", "--model", "eight_schools_noncentered",
                    "--data", "/nonexistent/eight.json"}, "model data file '/nonexistent/eight.json' does not exist"),
                Arguments.of("NaN parameter", new String[] {"chains", "--param", "threshold=NaN"},
                        "--param threshold=NaN: model 'bimodal': model parameter 'threshold' must be a finite number "
                            + "but is 'NaN'"),
                Arguments.of("text for a number", new String[] {"chains", "--param", "threshold=abc"},
                        "model parameter 'threshold' must be a number but is the text 'abc'"),
                Arguments.of("a model parameter given twice (the last was kept)", new String[] {"chains", "--param",
                    "threshold=3", "--param", "threshold=4"}, "--param threshold=3 and --param threshold=4 both set "
                        + "'threshold'; give each model parameter once"),
                Arguments.of("data a directory", new String[] {"chains", "--model", "eight_schools_noncentered",
                    "--data", "/tmp"}, "model data file '/tmp' is a directory; give the JSON file"),
                Arguments.of("data lacks a field", new String[] {"chains", "--model", "eight_schools_noncentered"},
                        "'y' is missing"),
                // the help said "Pima diabetes by default", but there is no default data nor predictor list
                Arguments.of("logistic regression without its predictors", new String[] {"chains", "--model",
                    "logistic_regression", "--data", pima}, "model 'logistic_regression' with data " + pima + ": "
                        + "model parameter 'predictors' is missing: name the predictor columns, comma-separated, as "
                        + "conf/chains-pima.conf does for data/pima/pima.json"),
                Arguments.of("unknown user class", new String[] {"chains", "--model", "class:com.example.Nope"},
                        "not on the classpath"),
                Arguments.of("user class not a target", new String[] {"chains", "--model", "class:java.lang.String"},
                        "does not implement"),
                Arguments.of("user target whose static initialiser fails", new String[] {"chains", "--model",
                    "class:org.sparkmc.core.UserClassesTest$BrokenTarget"}, "model class "
                        + "'org.sparkmc.core.UserClassesTest$BrokenTarget' failed to initialise: "
                        + "java.lang.IllegalStateException: static set-up failed"),
                Arguments.of("user class not a target is not initialised", new String[] {"chains", "--model",
                    "class:org.sparkmc.core.UserClassesTest$NotATarget"}, "model class "
                        + "'org.sparkmc.core.UserClassesTest$NotATarget' does not implement org.sparkmc.core.model.Target"),
                Arguments.of("unknown option", new String[] {"chains", "--conf", bimodal, "--chanis", "3"},
                        "Unknown option"),
                Arguments.of("misspelt model parameter", new String[] {"chains", "--param", "thresold=3"},
                        "model 'bimodal' does not read parameter 'thresold' (--param thresold=3) with these settings; "
                            + "the parameters it reads are [threshold]"),
                Arguments.of("data for another model", new String[] {"chains", "--data", eightSchools},
                        "model 'bimodal' reads none of the fields [J, sigma, y] of data file " + eightSchools));
    }

    /**
     * A sample of each command's option checks ({@link Require}): the message names the option, what it must be and
     * the value given. (lda, smc, bn and consensus have theirs beside their other bad input.)
     */
    static Stream<Arguments> optionValues() {
        String missing = "/nonexistent/draws.csv";
        return Stream.of(
                Arguments.of(new String[] {"chains", "--warmup", "-1"}, "--warmup must be ≥ 0, is -1"),
                Arguments.of(new String[] {"chains", "--max-rounds", "0"}, "--max-rounds must be ≥ 1, is 0"),
                Arguments.of(new String[] {"chains", "--max-rhat", "1"}, "--max-rhat must be > 1, is 1"),
                Arguments.of(new String[] {"chains", "--min-ess", "NaN"},
                        "--min-ess must be a finite number ≥ 0, is NaN"),
                Arguments.of(new String[] {"chains", "--min-ess", "Infinity"},
                        "--min-ess must be a finite number ≥ 0, is Infinity"),
                // the driver built states until its heap ran out
                Arguments.of(new String[] {"chains", "--chains", "2147483647"},
                        "--chains 2147483647: the driver keeps every chain's state, about "),
                // NaN was how these options said "the kernel's default", so a NaN given was taken as that
                Arguments.of(new String[] {"chains", "--target-accept", "NaN"},
                        "--target-accept must be in (0, 1), is NaN"),
                Arguments.of(new String[] {"consensus", "--data", org.sparkmc.spark.TestPaths.projectRoot()
                    .resolve("data/pima/pima.csv").toString(), "--scale", "NaN"},
                        "--scale must be a finite number > 0, is NaN"),
                Arguments.of(new String[] {"chains", "--driver-draws-limit", "-1"},
                        "--driver-draws-limit must be ≥ 0, is -1"),
                Arguments.of(new String[] {"chains", "--report-parameters", "0"},
                        "--report-parameters must be ≥ 1, is 0"),
                Arguments.of(new String[] {"chains", "--checkpoint-every", "0"},
                        "--checkpoint-every must be a whole number ≥ 1 or auto, is '0'"),
                Arguments.of(new String[] {"diagnose", missing, "--max-rhat", "0.99"}, "--max-rhat must be > 1, is 0.99"),
                Arguments.of(new String[] {"diagnose", missing, "--min-ess", "-3"},
                        "--min-ess must be a finite number ≥ 0, is -3"),
                Arguments.of(new String[] {"diagnose", missing, "--min-ess-per-chain", "-0.5"},
                        "--min-ess-per-chain must be a finite number ≥ 0, is -0.5"),
                Arguments.of(new String[] {"diagnose", missing, "--report-parameters", "0"},
                        "--report-parameters must be ≥ 1, is 0"),
                Arguments.of(new String[] {"diagnose", missing, "--format", "xyz"},
                        "--format must be one of auto, parquet, cmdstan, csv, is 'xyz'"),
                Arguments.of(new String[] {"diagnose", missing},
                        "input '" + missing + "' does not exist (no file matches)"),
                Arguments.of(new String[] {"diagnose"}, "no input given: name Parquet draws, CmdStan CSV files or a "
                        + "CSV file"),
                Arguments.of(new String[] {"generate-glm", "--rows", "0"}, "--rows must be ≥ 1, is 0"),
                // its row blocks' count overflowed: no row written, exit 0
                Arguments.of(new String[] {"generate-glm", "--rows", "9223372036854775807"},
                        "--rows must be ≤ 1000000000000000, is 9223372036854775807"),
                Arguments.of(new String[] {"generate-glm", "--features", "-2"},
                        "--features must be in [1, 10000], is -2"),
                Arguments.of(new String[] {"generate-glm", "--features", "2000000000"},
                        "--features must be in [1, 10000], is 2000000000"),
                Arguments.of(new String[] {"generate-glm", "--family", "gaussian", "--sigma", "0"},
                        "--sigma must be a finite number > 0, is 0"),
                Arguments.of(new String[] {"generate-glm", "--sigma", "5"}, "--sigma is the gaussian family's noise "
                        + "scale; the logistic family has no σ: drop the option"),
                Arguments.of(new String[] {"generate-glm", "--coefficients", "1,2f"}, "'2f' is not a decimal number"),
                Arguments.of(new String[] {"generate-glm", "--partitions", "-1"},
                        "--partitions must be ≥ 0 (0: Spark's default parallelism), is -1"),
                Arguments.of(new String[] {"generate-lda", "--top-words", "0"}, "--top-words must be ≥ 1, is 0"),
                // it ran out of memory (exit 52) building the vocabulary's tables
                Arguments.of(new String[] {"generate-lda", "--vocabulary", "2000000000", "--master", "local[2]"},
                        "--vocabulary 2000000000: the planted model's tables over the vocabulary take at least 52.2 "
                        + "GiB, and local mode holds them in this JVM, whose heap is at most "));
    }

    @ParameterizedTest
    @MethodSource("optionValues")
    void optionChecksNameTheOptionAndItsValue(String[] args, String expected) {
        Path out = tmp.resolve("out");
        Result r = runCapturing(append(args, "--out", out.toString()));
        assertEquals(ExitCode.BAD_INPUT, r.code, r.err);
        assertTrue(r.err.contains(expected), "expected '" + expected + "' in: " + r.err);
        assertFalse(r.err.contains("\tat "), "no stack trace for bad input: " + r.err);
        assertFalse(Files.exists(out), "nothing written");
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("cases")
    void exitsTwoWithAClearMessage(String name, String[] args, String expected) {
        Path out = tmp.resolve("out");
        String[] withOut = args.length > 0 && args[0].equals("chains") ? append(args, "--out", out.toString()) : args;
        Result r = runCapturing(withOut);
        assertEquals(ExitCode.BAD_INPUT, r.code, r.err);
        assertTrue(r.err.contains(expected), "expected '" + expected + "' in: " + r.err);
        assertFalse(r.err.contains("\tat "), "no stack trace for bad input: " + r.err);
        assertFalse(Files.exists(out), "nothing written");
    }

    /**
     * An infinite number in a model's JSON data (1e999 overflows a double) is refused naming the file, line and
     * element; it used to reach the model and be reported as chains without a finite starting point.
     */
    @Test
    void infiniteModelDataNamesTheField() throws IOException {
        Path data = Files.writeString(tmp.resolve("eight.json"), "{\n  \"J\": 8,\n  \"y\": [28, 8, -3, 7, -1, 1, 18, 12],"
                + "\n  \"sigma\": [15, 10, 16, 11, 1e999, 11, 10, 18]\n}\n");
        Path out = tmp.resolve("out");
        Result r = runCapturing("chains", "--model", "eight_schools_noncentered", "--data", data.toString(),
                "--out", out.toString());
        assertEquals(ExitCode.BAD_INPUT, r.code, r.err);
        assertTrue(r.err.contains("model data file " + data + " line 4: 'sigma[5]' is infinity (a number beyond "
                + "±1.8e308); model data must be finite numbers"), r.err);
        assertFalse(r.err.contains("starting point"), r.err);
        assertFalse(Files.exists(out));
    }

    /** A field of a model's JSON data of the wrong type names the file and the line its value begins on. */
    @Test
    void modelDataOfTheWrongTypeNamesFileAndLine() throws IOException {
        Path data = Files.writeString(tmp.resolve("eight.json"), "{\n  \"J\": 8,\n  \"y\": [28, 8, -3, 7, -1, 1, 18, "
                + "12],\n  \"sigma\": [15, 10, 16, 11, 9, \"abc\", 10, 18]\n}\n");
        Result r = runCapturing("chains", "--model", "eight_schools_noncentered", "--data", data.toString(),
                "--out", tmp.resolve("out").toString());
        assertEquals(ExitCode.BAD_INPUT, r.code, r.err);
        assertTrue(r.err.contains(data + ":4: model 'eight_schools_noncentered' with data " + data + ": 'sigma[6]' "
                + "must be a number but is the text 'abc'"), r.err);
        assertFalse(Files.exists(tmp.resolve("out")));
    }

    /**
     * A save cadence without a checkpoint directory is warned of, not ignored in silence (the run then stops at
     * {@code --report-parameters 0}, before Spark); the default cadence, or one with a directory, is not.
     */
    @Test
    void aCheckpointCadenceWithoutACheckpointIsWarnedOf() throws Exception {
        String out = tmp.resolve("out").toString();
        String ckpt = tmp.resolve("ckpt").toString();
        String warning = "--checkpoint-every 5 has no effect without --checkpoint DIR, which it spaces the saves to";
        assertEquals(java.util.List.of(warning), LoggedLines.of(ResumeOptions.class, () -> runCapturing("chains",
                "--checkpoint-every", "5", "--report-parameters", "0", "--out", out)));
        assertEquals(java.util.List.of(), LoggedLines.of(ResumeOptions.class, () -> runCapturing("chains",
                "--checkpoint-every", "5", "--checkpoint", ckpt, "--report-parameters", "0", "--out", out)));
        assertEquals(java.util.List.of(), LoggedLines.of(ResumeOptions.class, () -> runCapturing("chains",
                "--report-parameters", "0", "--out", out)));
    }

    @Test
    void malformedConfigNamesFileAndLine() throws IOException {
        Path conf = tmp.resolve("broken.conf");
        Files.writeString(conf, "chains = 4\nscale = }\nseed = 1\n");
        Result r = runCapturing("chains", "--conf", conf.toString(), "--out", tmp.resolve("o").toString());
        assertEquals(ExitCode.BAD_INPUT, r.code);
        assertTrue(r.err.contains("broken.conf: 2"), r.err);
    }

    /**
     * {@code include required("missing.conf")} said "not found on classpath" and a plain {@code include} of a
     * missing file was skipped silently; both now exit 2 naming the file looked for, beside the including one.
     */
    @ParameterizedTest
    @ValueSource(strings = {"include required(\"missing.conf\")", "include \"missing.conf\"",
        "include file(\"missing.conf\")"})
    void missingIncludeNamesThePathBesideTheConfig(String include) throws IOException {
        Path conf = tmp.resolve("conf/main.conf");
        Files.createDirectories(conf.getParent());
        Files.writeString(conf, "chains = 4\n" + include + "\n");
        Path out = tmp.resolve("o");
        Result r = runCapturing("chains", "--conf", conf.toString(), "--out", out.toString());
        assertEquals(ExitCode.BAD_INPUT, r.code, r.err);
        assertTrue(r.err.contains("config file '" + conf + "' includes 'missing.conf', but '"
                + conf.resolveSibling("missing.conf") + "' does not exist"), r.err);
        assertFalse(r.err.contains("classpath") || r.err.contains("\tat "), r.err);
        assertFalse(Files.exists(out));
    }

    /**
     * {@code include url(…)} and {@code include classpath(…)} are refused, present or missing (a missing one was
     * skipped silently, and one that is there was read without the checks a file gets).
     */
    @ParameterizedTest
    @ValueSource(strings = {"classpath(\"nothere-at-all.conf\")", "url(\"file:///nothere.conf\")",
        "required(classpath(\"log4j2.properties\"))"})
    void includesOfUrlsAndClasspathResourcesExitTwo(String include) throws IOException {
        Path conf = Files.writeString(tmp.resolve("main.conf"), "chains = 4\ninclude " + include + "\n");
        Path out = tmp.resolve("o");
        Result r = runCapturing("chains", "--conf", conf.toString(), "--out", out.toString());
        assertEquals(ExitCode.BAD_INPUT, r.code, r.err);
        assertTrue(r.err.contains("config file '" + conf + "' has 'include "), r.err);
        assertTrue(r.err.contains("include a file by its path instead"), r.err);
        assertFalse(Files.exists(out));
    }

    /** An included file is read from the including file's directory, its keys checked with its own name and line. */
    @Test
    void includedFileIsReadBesideTheConfig() throws IOException {
        Path conf = tmp.resolve("conf/main.conf");
        Files.createDirectories(conf.getParent());
        Files.writeString(conf, "include \"common.conf\"\nchains = 4\n");
        Files.writeString(conf.resolveSibling("common.conf"), "seed = 3\nchians = 8\n");
        Result r = runCapturing("chains", "--conf", conf.toString(), "--out", tmp.resolve("o").toString());
        assertEquals(ExitCode.BAD_INPUT, r.code, r.err);
        assertTrue(r.err.contains("common.conf:2") && r.err.contains("unknown key 'chians'"), r.err);
    }

    /**
     * A config file (or a file it includes) in Latin-1 was read with its accented letters turned into U+FFFD and the
     * garbled value used; now it is refused with the file, line and column. A byte-order mark is valid and dropped.
     */
    @Test
    void aConfigFileThatIsNotUtf8NamesLineAndColumn() throws IOException {
        Path conf = tmp.resolve("latin.conf");
        Files.write(conf, "chains = 4\nout = \"r\u00e9sultats\"\n".getBytes(StandardCharsets.ISO_8859_1));
        Result r = runCapturing("chains", "--conf", conf.toString());
        assertEquals(ExitCode.BAD_INPUT, r.code, r.err);
        assertTrue(r.err.contains("config file '" + conf + "' line 2 column 9: byte 0xE9"), r.err);
        assertFalse(Files.exists(tmp.resolve("r\ufffdsultats")));

        Path main = Files.writeString(tmp.resolve("main.conf"), "include \"latin.conf\"\n");
        r = runCapturing("chains", "--conf", main.toString());
        assertEquals(ExitCode.BAD_INPUT, r.code, r.err);
        assertTrue(r.err.contains("config file '" + conf + "' line 2 column 9"), r.err);
    }

    @Test
    void aConfigFileWithAByteOrderMarkIsRead() throws IOException {
        Path conf = tmp.resolve("bom.conf");
        Files.write(conf, "\ufeffchians = 4\n".getBytes(StandardCharsets.UTF_8));
        Result r = runCapturing("chains", "--conf", conf.toString(), "--out", tmp.resolve("o").toString());
        assertEquals(ExitCode.BAD_INPUT, r.code, r.err);
        assertTrue(r.err.contains("unknown key 'chians'") && !r.err.contains("\ufeff"), r.err);
    }

    @Test
    void unknownConfigKeyNamesFileAndLine() throws IOException {
        Path conf = tmp.resolve("typo.conf");
        Files.writeString(conf, "chains = 4\nchians = 8\n");
        Result r = runCapturing("chains", "--conf", conf.toString(), "--out", tmp.resolve("o").toString());
        assertEquals(ExitCode.BAD_INPUT, r.code);
        assertTrue(r.err.contains("typo.conf:2") && r.err.contains("unknown key 'chians'"), r.err);
    }

    /** help, version and conf in a config file were taken as known keys and ignored: the run went ahead. */
    @Test
    void commandLineActsAreUnknownKeysInAConfigFile() throws IOException {
        for (String line : List.of("conf = \"/nonexistent/other.conf\"", "help = true", "version = true")) {
            Path conf = Files.writeString(tmp.resolve("acts.conf"), "chains = 4\n" + line + "\n");
            Result r = runCapturing("chains", "--conf", conf.toString(), "--out", tmp.resolve("o").toString());
            assertEquals(ExitCode.BAD_INPUT, r.code, line + ": " + r.err);
            String key = line.substring(0, line.indexOf(' '));
            assertTrue(r.err.contains("acts.conf:2") && r.err.contains("unknown key '" + key + "'"), r.err);
            String listed = r.err.substring(r.err.indexOf("known keys: [") + "known keys: [".length());
            assertFalse(List.of(listed.substring(0, listed.indexOf(']')).split(", ")).contains(key), r.err);
            assertFalse(Files.exists(tmp.resolve("o")));
        }
    }

    /**
     * A comma too many in a comma-separated value ('--coefficients 1,2,'; 'query = [CO, ""]' in a config file): picocli
     * dropped the trailing empty entry, so the run went ahead with one value fewer (a config file's empty query name
     * too). (An inner one, '1,,2', is refused by the number's conversion.)
     */
    @Test
    void anEmptyEntryInACommaSeparatedValueIsRefused() throws IOException {
        for (String value : List.of("1,-0.5,", "-0.5,,")) {
            Result r = runCapturing("generate-glm", "--features", "2", "--coefficients", value, "--out",
                    tmp.resolve("o").toString());
            assertEquals(ExitCode.BAD_INPUT, r.code, value + ": " + r.err);
            assertTrue(r.err.contains("sparkmc generate-glm: --coefficients '" + value + "' has an empty entry (a "
                    + "comma too many?); expected B[,B...]"), r.err);
            assertFalse(r.err.contains("\tat "), r.err);
        }
        for (String line : List.of("query = [CO, \"\"]", "query = \"CO,\"", "features = \"x1,,x2\"")) {
            String job = line.startsWith("query") ? "bn" : "consensus";
            Path conf = Files.writeString(tmp.resolve("list.conf"), "seed = 1\n" + line + "\n");
            Result r = runCapturing(job, "--conf", conf.toString(), "--out", tmp.resolve("o").toString());
            assertEquals(ExitCode.BAD_INPUT, r.code, line + ": " + r.err);
            assertTrue(r.err.contains("list.conf:2: --") && r.err.contains("has an empty entry (a comma too many?)"),
                    line + ": " + r.err);
        }
        assertFalse(Files.exists(tmp.resolve("o")));
    }

    /** A model parameter of the wrong type in a config file names the file and line (it named only the model). */
    @Test
    void aModelParameterOfTheWrongTypeNamesFileAndLine() throws IOException {
        Path conf = Files.writeString(tmp.resolve("params.conf"),
                "chains = 4\nmodel-params {\n  threshold = \"5x\"\n}\n");
        Result r = runCapturing("chains", "--conf", conf.toString(), "--out", tmp.resolve("o").toString());
        assertEquals(ExitCode.BAD_INPUT, r.code, r.err);
        assertTrue(r.err.contains("params.conf:3: model 'bimodal': model parameter 'threshold' must be a number but is "
                + "the text '5x'"), r.err);
        assertFalse(Files.exists(tmp.resolve("o")));
    }

    /** A config value of the wrong type names file and line, without the usage (whose defaults would show it). */
    @Test
    void badConfigValueNamesFileAndLine() throws IOException {
        Path conf = tmp.resolve("many.conf");
        Files.writeString(conf, "seed = 1\nchains = many\n");
        Result r = runCapturing("chains", "--conf", conf.toString(), "--out", tmp.resolve("o").toString());
        assertEquals(ExitCode.BAD_INPUT, r.code, r.err);
        // led by the job's name, as every other refusal of a config value (it began "sparkmc: …/many.conf:2:")
        assertTrue(r.err.startsWith("sparkmc chains: " + conf + ":2: chains = many: ")
                && r.err.contains("'many' is not an int")
                && r.err.contains("\nRun 'sparkmc chains --help' for the options."), r.err);
        assertFalse(r.err.contains("Default: many") || r.err.contains("Usage"), r.err);
        Path good = tmp.resolve("good.conf");
        Files.writeString(good, "chains = 4\n");
        Result cli = runCapturing("chains", "--conf", good.toString(), "--chains", "lots", "--out",
                tmp.resolve("o").toString());
        assertEquals(ExitCode.BAD_INPUT, cli.code, cli.err);
        assertTrue(cli.err.contains("Invalid value for option '--chains': 'lots' is not an int")
                && !cli.err.contains("good.conf"), "a command-line value is not blamed on the file: " + cli.err);
        assertFalse(Files.exists(tmp.resolve("o")));
    }

    /**
     * An integer option from the config file is read as written, as the command line reads it: {@code warmup = 10.0}
     * and {@code 1e3}, {@code round-size = 1e1} were taken as 10, 1000 and 10 (the command line refuses
     * {@code --warmup 10.0}), and {@code warmup = 1e400} was echoed as {@code warmup = Infinity}.
     */
    @Test
    void anIntegerFromTheConfigIsReadAsWritten() throws IOException {
        for (String line : List.of("warmup = 10.0", "warmup = 1e3", "round-size = 1e1", "warmup = 1e400")) {
            String rounds = line.startsWith("round-size") ? "" : "round-size = 100\n"; // quick if it ran
            Path conf = Files.writeString(tmp.resolve("int.conf"), "seed = 1\n" + line + "\nmax-rounds = 1\n"
                    + "chains = 2\n" + rounds);
            Result r = runCapturing("chains", "--conf", conf.toString(), "--out", tmp.resolve("o").toString());
            assertEquals(ExitCode.BAD_INPUT, r.code, line + ": " + r.err);
            String value = line.substring(line.indexOf("= ") + 2);
            assertTrue(r.err.startsWith("sparkmc chains: " + conf + ":2: " + line + ": ")
                    && r.err.contains("'" + value + "' is not an int"), line + ": " + r.err);
            assertFalse(Files.exists(tmp.resolve("o")));
        }
    }

    /** A key set to null ({@code chains = null}) was skipped and the option's default used: refused with its line. */
    @Test
    void aKeySetToNullIsRefusedWithItsLine() throws IOException {
        Path conf = Files.writeString(tmp.resolve("null.conf"), "seed = 1\nchains = null\nwarmup = 10\n"
                + "round-size = 20\nmax-rounds = 1\n");
        Result r = runCapturing("chains", "--conf", conf.toString(), "--out", tmp.resolve("o").toString());
        assertEquals(ExitCode.BAD_INPUT, r.code, r.err);
        assertTrue(r.err.startsWith("sparkmc chains: " + conf + ":2: 'chains' has no value (null)"), r.err);
        assertFalse(Files.exists(tmp.resolve("o")));
    }

    /** A {@code .properties} file (read as Java properties) keeps no line numbers: the messages said line -1. */
    @Test
    void aPropertiesConfigIsNamedWithoutALine() throws IOException {
        Path conf = Files.writeString(tmp.resolve("run.properties"), "seed=1\nchains=many\n");
        Result r = runCapturing("chains", "--conf", conf.toString(), "--out", tmp.resolve("o").toString());
        assertEquals(ExitCode.BAD_INPUT, r.code, r.err);
        assertTrue(r.err.startsWith("sparkmc chains: " + conf + ": chains = many: "), r.err);
        assertFalse(r.err.contains(":-1"), r.err);
    }

    /** A value out of range from the config file is refused with the file's line; one from the command line is not. */
    @Test
    void aValueOutOfRangeFromTheConfigNamesFileAndLine() throws IOException {
        Path conf = Files.writeString(tmp.resolve("range.conf"), "seed = 1\nwarmup = -5\n");
        Result r = runCapturing("chains", "--conf", conf.toString(), "--out", tmp.resolve("o").toString());
        assertEquals(ExitCode.BAD_INPUT, r.code, r.err);
        assertTrue(r.err.contains("sparkmc chains: " + conf + ":2: --warmup must be ≥ 0, is -5"), r.err);
        Result cli = runCapturing("chains", "--conf", conf.toString(), "--warmup", "-3", "--out",
                tmp.resolve("o").toString());
        assertEquals(ExitCode.BAD_INPUT, cli.code, cli.err);
        assertTrue(cli.err.contains("sparkmc chains: --warmup must be ≥ 0, is -3"), cli.err);
        assertFalse(Files.exists(tmp.resolve("o")));
    }

    /**
     * Two lists side by side on one line, which HOCON joins into one ({@code [[1, 1] [0, 1]]} read as
     * {@code [[1, 1, 0, 1]]}), are refused in one line naming the file, line and column, or the {@code --param}.
     */
    @Test
    void listsSideBySideAreRefusedWithWhereTheyAre() throws IOException {
        String problem = TextAfterLists.SIDE_BY_SIDE;
        Path conf = Files.writeString(tmp.resolve("run.conf"), "model = bimodal\nmodel-params {\n"
                + "  threshold = [[1, 1] [0, 1]]\n}\n");
        Result r = runCapturing("chains", "--conf", conf.toString(), "--out", tmp.resolve("o").toString());
        assertEquals(ExitCode.BAD_INPUT, r.code, r.err);
        assertEquals("sparkmc chains: " + conf + ":3:21: " + problem + "\nRun 'sparkmc chains --help' for the options.",
                r.err.strip());
        r = runCapturing("chains", "--param", "threshold=[[1, 1] [0, 1]]", "--out", tmp.resolve("o").toString());
        assertEquals(ExitCode.BAD_INPUT, r.code, r.err);
        assertEquals("sparkmc chains: --param threshold=[[1, 1] [0, 1]]: " + problem, r.err.strip());
        assertFalse(Files.exists(tmp.resolve("o")));
    }

    /** A model-params key the model does not read names the file and line of each such key. */
    @Test
    void unreadModelParamsNameFileAndLine() throws IOException {
        Path conf = tmp.resolve("params.conf");
        Files.writeString(conf, "model = bimodal\nmodel-params {\n  threshold = 5\n  treshold = 3\n}\n");
        Result r = runCapturing("chains", "--conf", conf.toString(), "--param", "extra=1", "--out",
                tmp.resolve("o").toString());
        assertEquals(ExitCode.BAD_INPUT, r.code, r.err);
        assertTrue(r.err.contains("does not read parameters 'extra' (--param extra=1), 'treshold' (" + conf + ":4)")
                && r.err.contains("[threshold]"), r.err);
        assertFalse(Files.exists(tmp.resolve("o")));
    }

    /** Every job's --help lists -V, --version: each prints the version the top level prints. */
    @Test
    void everyJobPrintsTheVersion() {
        for (String job : new String[] {"chains", "diagnose", "smc", "bn", "lda"}) {
            Result r = runCapturingOut(job, "--version");
            assertEquals(ExitCode.OK, r.code, job + ": " + r.err);
            assertEquals("sparkmc 0.1.0", r.err.strip(), job);
        }
    }

    /**
     * A HOCON list gives an option that takes several values each item (bn's query), and a comma-separated option its
     * items joined by commas ({@code evidence = ["HISTORY=TRUE", "CVP=LOW"]} was "takes a single value, not a list").
     */
    @ParameterizedTest
    @ValueSource(strings = {"\"HISTORY=TRUE,CVP=LOW\"", "[\"HISTORY=TRUE\", \"CVP=LOW\"]"})
    void configListForARepeatableOption(String evidence) throws IOException {
        Path conf = tmp.resolve("bn.conf");
        Files.writeString(conf, "network = \"" + TestPaths.projectRoot().resolve("data/alarm/alarm.bif")
                + "\"\nevidence = " + evidence + "\nquery = [LVFAILURE, HYPOVOLEMIA]\nmethod = exact\n");
        Result r = runCapturingOut("bn", "--conf", conf.toString(), "--out", tmp.resolve("o").toString());
        assertEquals(ExitCode.OK, r.code, r.err);
        assertTrue(r.err.contains("P(LVFAILURE | evidence)") && r.err.contains("P(HYPOVOLEMIA | evidence)"), r.err);
    }

    /** A list for an option of one value: one message naming file and line, no picocli wrapping, no usage. */
    @Test
    void configListForASingleValueNamesFileAndLine() throws IOException {
        Path conf = tmp.resolve("list.conf");
        Files.writeString(conf, "chains = 4\nseed = [1, 2]\n");
        Result r = runCapturing("chains", "--conf", conf.toString(), "--out", tmp.resolve("o").toString());
        assertEquals(ExitCode.BAD_INPUT, r.code, r.err);
        assertTrue(r.err.startsWith("sparkmc chains: " + conf + ":2: 'seed' takes a single value, not a list [1, 2]"),
                r.err);
        assertFalse(r.err.contains("arg[") || r.err.contains("Exception") || r.err.contains("Usage"), r.err);
        assertFalse(Files.exists(tmp.resolve("o")));
    }

    /** A block for param (the command line's --param) points to the file's model-params block. */
    @Test
    void configParamBlockPointsToModelParams() throws IOException {
        Path conf = tmp.resolve("param.conf");
        Files.writeString(conf, "chains = 4\nparam {\n  threshold = 3\n}\n");
        Result r = runCapturing("chains", "--conf", conf.toString(), "--out", tmp.resolve("o").toString());
        assertEquals(ExitCode.BAD_INPUT, r.code, r.err);
        assertTrue(r.err.startsWith("sparkmc chains: " + conf + ":2: 'param' must be a single value, is {threshold=3}; "
                + "a config file sets model parameters in a block 'model-params { … }'"), r.err);
        assertFalse(r.err.contains("\tat ") || r.err.contains("Usage"), r.err);
        assertFalse(Files.exists(tmp.resolve("o")));
    }

    /** An lda message is prefixed once ("sparkmc lda: ...", not "sparkmc lda: lda: ..."). */
    @Test
    void prefixIsNotRepeated() throws IOException {
        Path conf = tmp.resolve("lda.conf");
        Files.writeString(conf, "docword = \"" + TestPaths.projectRoot().resolve("data/kos/docword.kos.txt.gz")
                + "\"\nvocab = \"" + TestPaths.projectRoot().resolve("data/kos/vocab.kos.txt") + "\"\ntopics = 0\n");
        Result r = runCapturing("lda", "--conf", conf.toString(), "--out", tmp.resolve("o").toString());
        assertEquals(ExitCode.BAD_INPUT, r.code, r.err);
        assertTrue(r.err.startsWith("sparkmc lda: " + conf + ":3: --topics must be in [1, 65535], is 0"), r.err);
        assertFalse(Files.exists(tmp.resolve("o")));
    }

    @Test
    void existingOutputIsRefusedAndKept() throws IOException {
        Path out = Files.createDirectories(tmp.resolve("existing"));
        Files.writeString(out.resolve("keep.txt"), "precious");
        Result r = runCapturing("chains", "--out", out.toString(), "--round-size", "50", "--warmup", "50");
        assertEquals(ExitCode.BAD_INPUT, r.code);
        assertTrue(r.err.contains("already exists"), r.err);
        assertEquals("precious", Files.readString(out.resolve("keep.txt")));
    }

    /** A sparkmc output is replaced whole: nothing of the old one (here its CmdStan CSVs) is left. */
    /**
     * A flag on the command line sets its option also when the config file sets it: picocli set a flag to the opposite
     * of its default, so {@code --overwrite} after a config's {@code overwrite = true} turned it off and the run
     * refused the existing output. {@code --overwrite=false} cancels the config's overwrite.
     */
    @Test
    void aFlagOnTheCommandLineKeepsTheConfigsTrue() throws IOException {
        String out = tmp.resolve("o").toString();
        String conf = Files.writeString(tmp.resolve("ow.conf"), "overwrite = true\nround-size = 200\nwarmup = 100\n"
                + "max-rounds = 1\nscale = 10\n").toString();
        assertEquals(ExitCode.OK, runCapturing("chains", "--conf", conf, "--out", out).code);
        Result r = runCapturing("chains", "--conf", conf, "--out", out, "--overwrite");
        assertEquals(ExitCode.OK, r.code, r.err);
        r = runCapturing("chains", "--conf", conf, "--out", out, "--overwrite=false");
        assertEquals(ExitCode.BAD_INPUT, r.code, r.err);
        assertTrue(Files.isRegularFile(tmp.resolve("o/_SUCCESS")), "the output is kept");
    }

    @Test
    void overwriteReplacesTheWholeDirectory() throws IOException {
        Path out = tmp.resolve("replaced");
        String[] quick = {"chains", "--out", out.toString(), "--round-size", "200", "--warmup", "100", "--max-rounds",
            "1", "--scale", "10"};
        assertEquals(ExitCode.OK, runCapturing(append(quick, "--cmdstan-csv")).code);
        assertTrue(Files.exists(out.resolve("cmdstan")));
        Result r = runCapturing(append(quick, "--overwrite"));
        assertEquals(ExitCode.OK, r.code, r.err);
        assertFalse(Files.exists(out.resolve("cmdstan")));
        assertTrue(Files.exists(out.resolve("_SUCCESS")));
        try (Stream<Path> siblings = Files.list(tmp)) {
            assertEquals(1, siblings.count(), "no staging or set-aside directories left behind");
        }
    }

    @Test
    void notConvergedWithRequireConvergenceExitsThreeAndStillWrites() {
        Path out = tmp.resolve("short");
        Result r = runCapturing("chains", "--out", out.toString(), "--round-size", "20", "--warmup", "0",
                "--max-rounds", "1", "--min-ess", "1e6", "--require-convergence");
        assertEquals(ExitCode.NOT_CONVERGED, r.code, r.err);
        assertTrue(Files.exists(out.resolve("_SUCCESS")));
    }

    @Test
    void helpListsEveryOptionWithItsDefault() {
        ByteArrayOutputStream buffer = new ByteArrayOutputStream();
        PrintStream old = System.out;
        System.setOut(new PrintStream(buffer, true, StandardCharsets.UTF_8));
        int code;
        try {
            code = Main.run("chains", "--help");
        } finally {
            System.setOut(old);
        }
        String help = buffer.toString(StandardCharsets.UTF_8);
        assertEquals(ExitCode.OK, code);
        for (String option : new String[] {"--conf", "--model", "--data", "--param", "--kernel", "--scale",
            "--[no-]adapt", "--chains", "--warmup", "--round-size", "--max-rounds", "--min-ess", "--max-rhat",
            "--seed", "--partitions", "--out", "--overwrite", "--require-convergence"}) {
            assertTrue(help.contains(option), option + " missing from help:\n" + help);
        }
        assertTrue(help.contains("Default: 8"), help);
        String flat = help.replaceAll("\\s+", " ");
        for (String name : org.sparkmc.core.catalog.ModelCatalog.builtInNames()) {
            assertTrue(flat.contains(name), "built-in model " + name + " missing from help:\n" + help);
        }
        assertTrue(flat.contains("rjmcmc"), "kernel rjmcmc missing from help:\n" + help);
    }

    /** Exit code and what the command printed on standard error. */
    public record Result(int code, String err) {
    }

    /** Runs and captures standard output and standard error together. */
    public static Result runCapturingOut(String... args) {
        ByteArrayOutputStream buffer = new ByteArrayOutputStream();
        PrintStream oldErr = System.err;
        PrintStream oldOut = System.out;
        PrintStream both = new PrintStream(buffer, true, StandardCharsets.UTF_8);
        System.setErr(both);
        System.setOut(both);
        try {
            int code = Main.run(args);
            return new Result(code, buffer.toString(StandardCharsets.UTF_8));
        } finally {
            System.setErr(oldErr);
            System.setOut(oldOut);
        }
    }

    public static Result runCapturing(String... args) {
        ByteArrayOutputStream buffer = new ByteArrayOutputStream();
        PrintStream old = System.err;
        System.setErr(new PrintStream(buffer, true, StandardCharsets.UTF_8));
        try {
            int code = Main.run(args);
            return new Result(code, buffer.toString(StandardCharsets.UTF_8));
        } finally {
            System.setErr(old);
        }
    }

    static String[] append(String[] a, String... b) {
        String[] out = java.util.Arrays.copyOf(a, a.length + b.length);
        System.arraycopy(b, 0, out, a.length, b.length);
        return out;
    }
}
