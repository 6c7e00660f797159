package org.sparkmc.spark.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.sparkmc.spark.cli.BadInputTest.runCapturing;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.sparkmc.core.InvalidInputException;
import org.sparkmc.spark.SparkTestBase;
import org.sparkmc.spark.TestPaths;
import org.sparkmc.spark.cli.BadInputTest.Result;
import picocli.CommandLine.Model.OptionSpec;

/**
 * Relative paths in a config file resolve against the file's directory (issue 18, item 8): a project's config names
 * its data as {@code ../data/…} and runs from any working directory. The tests run in {@code spark-jobs/}, never in
 * the temporary project that holds the config, so a path resolved against the working directory would not exist.
 */
public class ConfigPathsTest extends SparkTestBase {
    private static final String QUICK = "model = eight_schools_noncentered\nwarmup = 50\nround-size = 100\n"
            + "max-rounds = 1\nchains = 2\n";

    @TempDir
    Path tmp;

    /** A project in the temporary directory: {@code data/es.json} and an empty {@code conf/}. */
    private Path project() throws IOException {
        Path data = Files.createDirectories(tmp.resolve("project/data"));
        Files.copy(TestPaths.projectRoot().resolve("data/eight_schools/eight_schools.json"), data.resolve("es.json"));
        return Files.createDirectories(tmp.resolve("project/conf"));
    }

    @Test
    void dataAndOutInAConfigResolveAgainstItsDirectory() throws IOException {
        Path conf = project().resolve("run.conf");
        Files.writeString(conf, QUICK + "data = \"../data/es.json\"\nout = \"../results/es\"\n");
        Result r = runCapturing("chains", "--conf", conf.toString());
        assertEquals(ExitCode.OK, r.code(), r.err());
        assertTrue(Files.isRegularFile(tmp.resolve("project/results/es/summary.json")), r.err());
        assertFalse(Files.exists(Path.of("../results")), "nothing written relative to the working directory");
    }

    @Test
    void commandLinePathsStayRelativeToTheWorkingDirectory() throws IOException {
        Path conf = project().resolve("run.conf");
        Files.writeString(conf, QUICK + "data = \"../data/es.json\"\n");
        Path cwdRelative = Path.of("").toAbsolutePath().relativize(tmp.resolve("project/data/es.json"));
        Path out = tmp.resolve("from-the-line");
        Result r = runCapturing("chains", "--conf", conf.toString(), "--data", cwdRelative.toString(), "--out",
                Path.of("").toAbsolutePath().relativize(out).toString());
        assertEquals(ExitCode.OK, r.code(), r.err());
        assertTrue(Files.isRegularFile(out.resolve("summary.json")), r.err());
    }

    @Test
    void absolutePathsAndUrisStayAsWritten() throws IOException {
        Path conf = project().resolve("run.conf");
        Files.writeString(conf, QUICK);
        ConfigFile file = ConfigFile.load(conf.toString());
        for (String kept : new String[] {"/abs/data.json", "hdfs://nn:8020/d/x.json", "s3a://bucket/x.json",
            "file:/tmp/x.json", "file:///tmp/x.json", ""}) {
            assertEquals(kept, file.resolved(kept));
        }
        assertEquals(tmp.resolve("project/data/es.json").toString(), file.resolved("../data/es.json"));
        assertEquals(tmp.resolve("project/conf/d/x.json").toString(), file.resolved("d/x.json"));
    }

    @Test
    void aMissingRelativeDataFileIsNamedWhereItWasLookedFor() throws IOException {
        Path conf = project().resolve("run.conf");
        Files.writeString(conf, QUICK + "data = \"../data/missing.json\"\nout = \"../results/m\"\n");
        Result r = runCapturing("chains", "--conf", conf.toString());
        assertEquals(ExitCode.BAD_INPUT, r.code(), r.err());
        assertTrue(r.err().contains(tmp.resolve("project/data/missing.json").toString()), r.err());
    }

    /** {@code out = "."} now means the config's own directory, which holds an input of the run: still refused. */
    @Test
    void anOutputThatIsTheConfigsDirectoryIsRefused() throws IOException {
        Path confDir = project();
        Path conf = confDir.resolve("run.conf");
        Files.writeString(conf, QUICK + "data = \"../data/es.json\"\nout = \".\"\noverwrite = true\n");
        Files.writeString(confDir.resolve("PRECIOUS.txt"), "keep");
        Result r = runCapturing("chains", "--conf", conf.toString());
        assertEquals(ExitCode.BAD_INPUT, r.code(), r.err());
        assertEquals("keep", Files.readString(confDir.resolve("PRECIOUS.txt")));
        assertTrue(Files.isRegularFile(conf));
    }

    /**
     * A relative path in an included file is relative to that file (as its own includes are): it was resolved against
     * the main file's directory, so {@code data = "es.json"} in {@code sub/common.conf} read {@code es.json} beside
     * the main file.
     */
    @Test
    void aPathInAnIncludedFileResolvesAgainstThatFilesDirectory() throws IOException {
        Path sub = Files.createDirectories(tmp.resolve("inc/sub"));
        Files.copy(TestPaths.projectRoot().resolve("data/eight_schools/eight_schools.json"), sub.resolve("es.json"));
        Files.writeString(sub.resolve("common.conf"), "model = eight_schools_noncentered\ndata = \"es.json\"\n"
                + "out = \"results\"\n");
        Path main = Files.writeString(tmp.resolve("inc/main.conf"), "include \"sub/common.conf\"\nwarmup = 50\n"
                + "round-size = 100\nmax-rounds = 1\nchains = 2\n");
        Result r = runCapturing("chains", "--conf", main.toString());
        assertEquals(ExitCode.OK, r.code(), r.err());
        assertTrue(Files.isRegularFile(sub.resolve("results/summary.json")), r.err());
        assertFalse(Files.exists(tmp.resolve("inc/results")), r.err());
    }

    /**
     * A relative path with a colon ({@code out = "run-2026-12-03T10:00"}) was taken for a URI and kept relative to
     * the working directory; a URI has {@code :/} after its scheme, as on the command line ({@code UserPaths}).
     */
    @Test
    void aRelativePathWithAColonResolvesAgainstTheFilesDirectory() throws IOException {
        Path conf = project().resolve("run.conf");
        Files.writeString(conf, QUICK);
        ConfigFile file = ConfigFile.load(conf.toString());
        for (String relative : new String[] {"run-2026-12-03T10:00", "out/a:b", "ab:c/d"}) {
            assertEquals(tmp.resolve("project/conf").resolve(relative).toString(), file.resolved(relative));
        }
    }

    /**
     * A number HOCON reads from an unquoted value keeps its written form for a text or path option: {@code out = 007}
     * wrote to {@code 7}, {@code columns = 1.50} named the column {@code 1.5}.
     */
    @Test
    void anUnquotedNumberIsPassedOnAsWritten() throws IOException {
        Path conf = project().resolve("run.conf");
        Files.writeString(conf, "out = 007\ncolumns = 1.50\nquery = [007, 1.50]\n");
        ConfigFile file = ConfigFile.load(conf.toString());
        assertEquals(tmp.resolve("project/conf/007").toString(), file.defaultValue(option("--out", "DIR", null)));
        assertEquals("1.50", file.defaultValue(option("--columns", "A,B", null)));
        assertEquals("007,1.50", file.defaultValue(option("--query", "VAR", ",")));
    }

    /**
     * A comma-separated option ({@code evidence}, {@code columns}) takes a HOCON list, as an option of several values
     * does; an item holding the separator, which would be read as two, is refused (for those options too).
     */
    @Test
    void aCommaSeparatedOptionTakesAListAndRefusesAnItemWithAComma() throws IOException {
        Path conf = project().resolve("run.conf");
        Files.writeString(conf, "evidence = [\"HISTORY=TRUE\", \"CVP=LOW\"]\ncolumns = [flow]\n"
                + "query = [\"A,B\"]\nmodel = [\"x,y\"]\n");
        ConfigFile file = ConfigFile.load(conf.toString());
        assertEquals("HISTORY=TRUE,CVP=LOW", file.defaultValue(option("--evidence", "VAR=STATE,...", null)));
        assertEquals("flow", file.defaultValue(option("--columns", "A,B", null)));
        String message = assertThrows(InvalidInputException.class,
                () -> file.defaultValue(option("--query", "VAR", ","))).getMessage();
        assertEquals(conf + ":3: 'query' has the list item 'A,B', which holds the separator ',' and would be read as "
                + "several; give each value as an item of its own", message);
        message = assertThrows(InvalidInputException.class,
                () -> file.defaultValue(option("--model", "NAME", null))).getMessage();
        assertTrue(message.startsWith(conf + ":4: 'model' takes a single value, not a list"), message);
    }

    /** An option as a job declares it: a label, and a comma split for one of several values. */
    private static OptionSpec option(String name, String label, String split) {
        OptionSpec.Builder b = OptionSpec.builder(name).paramLabel(label);
        return split == null ? b.type(String.class).build()
                : b.type(List.class).auxiliaryTypes(String.class).splitRegex(split).build();
    }
}
