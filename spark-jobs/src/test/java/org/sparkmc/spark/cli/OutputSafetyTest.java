package org.sparkmc.spark.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.sparkmc.spark.cli.BadInputTest.runCapturing;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.sparkmc.spark.SparkTestBase;
import org.sparkmc.spark.TestPaths;
import org.sparkmc.spark.cli.BadInputTest.Result;
import org.sparkmc.spark.io.FaultyFileSystem;

/**
 * A run never destroys what it did not write: --overwrite replaces only a sparkmc output holding nothing else and
 * never one holding the run's inputs; a checkpoint directory is never a foreign one, nor overlaps the output; and a
 * full disk leaves neither staging nor a damaged earlier output. Each case reproduces a data loss an adversarial
 * run found on the old code (issue 18, A–C and G).
 */
public class OutputSafetyTest extends SparkTestBase {
    private static final String[] QUICK = {"--round-size", "100", "--warmup", "50", "--max-rounds", "1"};

    @TempDir
    Path tmp;

    @AfterEach
    void healDisk() {
        FaultyFileSystem.reset();
    }

    private static String[] chains(String... args) {
        return Stream.concat(Stream.of("chains"), Stream.concat(Stream.of(args), Stream.of(QUICK)))
                .toArray(String[]::new);
    }

    private Path chainsOutput(String name) {
        Path out = tmp.resolve(name);
        Result r = runCapturing(chains("--out", out.toString()));
        assertEquals(ExitCode.OK, r.code(), r.err());
        return out;
    }

    private List<String> listing(Path dir) throws IOException {
        try (Stream<Path> s = Files.list(dir)) {
            return s.map(p -> p.getFileName().toString()).sorted().toList();
        }
    }

    /**
     * Places a run could not write, refused before Spark with exit 2: a symbolic link to nothing (the file system
     * calls it absent, and the run failed only at its commit), a scheme no file system serves, s3a:// without its
     * jars, and a --lineage-dir that is a file.
     */
    @Test
    void unwritablePlacesAreRefusedBeforeTheRun() throws IOException {
        Path dangling = Files.createSymbolicLink(tmp.resolve("dangling"), tmp.resolve("nowhere"));
        Result r = runCapturing(chains("--out", dangling.toString()));
        assertEquals(ExitCode.BAD_INPUT, r.code(), r.err());
        assertTrue(r.err().contains("is a symbolic link to '" + tmp.resolve("nowhere") + "', which does not exist"),
                r.err());
        assertFalse(Files.exists(tmp.resolve("nowhere")));

        r = runCapturing(chains("--out", "foo://x/y"));
        assertEquals(ExitCode.BAD_INPUT, r.code(), r.err());
        assertTrue(r.err().contains("No FileSystem for scheme \"foo\": give a path in a scheme Hadoop serves here"),
                r.err());
        // An input in such a scheme too, wherever the job names it (smc's said only "cannot be read").
        for (String[] input : List.of(new String[] {"smc", "--data", "foo://x/obs"},
                new String[] {"diagnose", "foo://x/draws"}, new String[] {"lda", "--text", "foo://x/t.txt"})) {
            String[] args = java.util.Arrays.copyOf(input, input.length + 2);
            args[input.length] = "--out";
            args[input.length + 1] = tmp.resolve("out").toString();
            r = runCapturing(args);
            assertEquals(ExitCode.BAD_INPUT, r.code(), r.err());
            assertTrue(r.err().contains("No FileSystem for scheme \"foo\": give a path in a scheme Hadoop serves "
                    + "here"), r.err());
            assertEquals(1, r.err().strip().lines().count(), r.err());
        }
        r = runCapturing(chains("--out", "s3a://bucket/x"));
        assertEquals(ExitCode.BAD_INPUT, r.code(), r.err());
        assertTrue(r.err().contains("Hadoop's file system org.apache.hadoop.fs.s3a.S3AFileSystem is not on the class "
                + "path: add its jars"), r.err());

        Path checkpoint = tmp.resolve("ckpt");
        r = runCapturing("lda", "--conf", TestPaths.conf("lda-kos.conf").toString(), "--checkpoint",
                checkpoint.toString(), "--lineage-dir", checkpoint.resolve("rdd").toString(), "--out",
                tmp.resolve("out").toString());
        assertEquals(ExitCode.BAD_INPUT, r.code(), r.err());
        assertTrue(r.err().contains("--lineage-dir '" + checkpoint.resolve("rdd") + "' and --checkpoint '" + checkpoint
                + "' overlap (the first lies inside the second)"), r.err());

        Path file = Files.writeString(tmp.resolve("cuts"), "");
        for (String[] job : List.of(
                new String[] {"smc", "--conf", TestPaths.conf("smc-nile.conf").toString(), "--particles", "1000"},
                new String[] {"lda", "--conf", TestPaths.conf("lda-kos.conf").toString(), "--topics", "5"})) {
            r = runCapturing(Stream.concat(Stream.of(job), Stream.of("--lineage-dir", file.toString(), "--out",
                    tmp.resolve("out").toString())).toArray(String[]::new));
            assertEquals(ExitCode.BAD_INPUT, r.code(), r.err());
            assertTrue(r.err().contains("--lineage-dir '" + file + "' is a file; give a directory"), r.err());
            assertFalse(r.err().contains("\tat "), r.err());
            assertFalse(Files.exists(tmp.resolve("out")));
            // below a file: Spark's mkdirs failed with a ParentNotDirectoryException and its trace, exit 1
            r = runCapturing(Stream.concat(Stream.of(job), Stream.of("--lineage-dir", file.resolve("l2/lin")
                    .toString(), "--out", tmp.resolve("out").toString())).toArray(String[]::new));
            assertEquals(ExitCode.BAD_INPUT, r.code(), r.err());
            assertTrue(r.err().contains("--lineage-dir '" + file.resolve("l2/lin") + "' cannot be made: " + file
                    + " is a file, not a directory; give a directory"), r.err());
            assertFalse(r.err().contains("\tat "), r.err());
            assertFalse(Files.exists(tmp.resolve("out")));
        }
    }

    @Test
    void overwriteRefusesADirectoryThatIsNotASparkmcOutput() throws IOException {
        Path out = Files.createDirectories(tmp.resolve("mine"));
        Files.writeString(out.resolve("PRECIOUS.txt"), "keep");
        Result r = runCapturing(chains("--out", out.toString(), "--overwrite"));
        assertEquals(ExitCode.BAD_INPUT, r.code(), r.err());
        assertTrue(r.err().contains("--overwrite refuses to replace '" + "file:" + out + "': it is not a sparkmc "
                + "output (it has no _SUCCESS)"), r.err());
        assertEquals(List.of("PRECIOUS.txt"), listing(out));
        assertEquals(List.of("mine"), listing(tmp), "no staging left");
    }

    @Test
    void overwriteReplacesASparkmcOutputButNotOneAUserAddedTo() throws IOException {
        Path out = chainsOutput("o");
        Result again = runCapturing(chains("--out", out.toString(), "--overwrite", "--seed", "7"));
        assertEquals(ExitCode.OK, again.code(), again.err());
        Files.writeString(out.resolve("notes.txt"), "my notes");
        Result r = runCapturing(chains("--out", out.toString(), "--overwrite"));
        assertEquals(ExitCode.BAD_INPUT, r.code(), r.err());
        assertTrue(r.err().contains("it holds 1 entry sparkmc did not write: notes.txt"), r.err());
        assertEquals("my notes", Files.readString(out.resolve("notes.txt")));
        assertEquals(List.of("o"), listing(tmp));
        // A name Hadoop's local file system keeps for its checksums, with no file of ours beside it: the user's too
        // (that file system hides such names from its listings, so it was deleted unseen).
        Files.delete(out.resolve("notes.txt"));
        Files.writeString(out.resolve(".precious.crc"), "mine");
        Result crc = runCapturing(chains("--out", out.toString(), "--overwrite"));
        assertEquals(ExitCode.BAD_INPUT, crc.code(), crc.err());
        assertTrue(crc.err().contains("it holds 1 entry sparkmc did not write: .precious.crc"), crc.err());
        assertEquals("mine", Files.readString(out.resolve(".precious.crc")));
    }

    /** The old code deleted the data file it was about to read: --data DIR/x.json --out DIR --overwrite. */
    @Test
    void overwriteNeverDeletesTheRunsOwnInput() throws IOException {
        Path out = chainsOutput("o");
        Result r = runCapturing("diagnose", out.resolve("draws.parquet").toString(), "--out", out.toString(),
                "--overwrite");
        assertEquals(ExitCode.BAD_INPUT, r.code(), r.err());
        assertTrue(r.err().contains("--overwrite would delete the run's own input: input '" + out.resolve(
                "draws.parquet") + "' lies in --out"), r.err());
        assertTrue(Files.exists(out.resolve("draws.parquet")));

        Path data = Files.copy(TestPaths.projectRoot().resolve("data/eight_schools/eight_schools.json"),
                out.resolve("eight_schools.json"));
        r = runCapturing(chains("--model", "eight_schools_noncentered", "--data", data.toString(), "--out",
                out.toString(), "--overwrite"));
        assertEquals(ExitCode.BAD_INPUT, r.code(), r.err());
        assertTrue(r.err().contains("--data '" + data + "' lies in --out"), r.err());
        assertTrue(Files.exists(data));
    }

    /** A glob input (a star for the run's directory) that matches a file inside --out is caught too. */
    /** A file a config includes is read by the run as much as the config itself: --overwrite keeps it too. */
    @Test
    void overwriteNeverDeletesAFileTheConfigIncludes() throws IOException {
        Path out = chainsOutput("o");
        Path common = Files.writeString(out.resolve("common.conf"), "seed = 3\n");
        Path conf = Files.writeString(tmp.resolve("main.conf"), "include \"" + common + "\"\n");
        Result r = runCapturing(chains("--conf", conf.toString(), "--out", out.toString(), "--overwrite"));
        assertEquals(ExitCode.BAD_INPUT, r.code(), r.err());
        assertTrue(r.err().contains("--overwrite would delete the run's own input: --conf (an included file) '"
                + common.toFile().toURI() + "' lies in --out"), r.err());
        assertTrue(Files.exists(common));
    }

    @Test
    void overwriteNeverDeletesAGlobbedInput() {
        Path out = chainsOutput("a");
        Result r = runCapturing("diagnose", tmp.resolve("*/draws.parquet").toString(), "--out", out.toString(),
                "--overwrite");
        assertEquals(ExitCode.BAD_INPUT, r.code(), r.err());
        assertTrue(r.err().contains("--overwrite would delete the run's own input: input '" + tmp.resolve(
                "*/draws.parquet") + "' (file:" + out.resolve("draws.parquet") + ") lies in --out"), r.err());
        assertTrue(Files.exists(out.resolve("draws.parquet")));
    }

    /** An input reached through a symbolic link into --out is caught too. */
    @Test
    void overwriteNeverDeletesAnInputBehindALink() throws IOException {
        Path out = chainsOutput("real");
        Path link = Files.createSymbolicLink(tmp.resolve("link"), out);
        Result r = runCapturing("diagnose", link.resolve("draws.parquet").toString(), "--out", out.toString(),
                "--overwrite");
        assertEquals(ExitCode.BAD_INPUT, r.code(), r.err());
        assertTrue(r.err().contains("--overwrite would delete the run's own input"), r.err());
        assertTrue(Files.exists(out.resolve("draws.parquet")));
    }

    /** Even a sparkmc output is not replaced while it is the working directory (or holds it). */
    @Test
    void overwriteRefusesTheWorkingDirectoryAndItsAncestors() {
        Path cwd = Path.of(System.getProperty("user.dir"));
        for (Path out : List.of(cwd, cwd.getParent())) {
            Result r = runCapturing(chains("--out", out.toString(), "--overwrite"));
            assertEquals(ExitCode.BAD_INPUT, r.code(), r.err());
            assertTrue(r.err().contains("it is the working directory or holds it"), r.err());
        }
        assertTrue(Files.exists(cwd.resolve("pom.xml")));
    }

    /** The old code deleted every file whose name began with state- in the checkpoint directory. */
    @Test
    void aCheckpointNeverTakesOverAForeignDirectory() throws IOException {
        Path ckpt = Files.createDirectories(tmp.resolve("ckpt"));
        Files.writeString(ckpt.resolve("state-of-the-art.txt"), "a");
        Files.writeString(ckpt.resolve("state-notes.json"), "{}");
        Result r = runCapturing(chains("--out", tmp.resolve("o").toString(), "--checkpoint", ckpt.toString()));
        assertEquals(ExitCode.BAD_INPUT, r.code(), r.err());
        assertTrue(r.err().contains("--checkpoint '" + ckpt + "' holds files sparkmc did not write"), r.err());
        assertEquals(List.of("state-notes.json", "state-of-the-art.txt"), listing(ckpt));
        assertFalse(Files.exists(tmp.resolve("o")));
    }

    /**
     * A new checkpoint directory is claimed (marked) and used; a second run with --resume takes it as its own, and
     * one without --resume is refused before it touches anything: its first save would have replaced the earlier
     * run's rounds and states, which that run's --resume needs.
     */
    @Test
    void aNewCheckpointDirectoryIsClaimedAndResumable() throws IOException {
        Path ckpt = tmp.resolve("ckpt");
        Result r = runCapturing(chains("--out", tmp.resolve("o1").toString(), "--checkpoint", ckpt.toString()));
        assertEquals(ExitCode.OK, r.code(), r.err());
        assertTrue(listing(ckpt).contains("_sparkmc-checkpoint"), listing(ckpt).toString());
        r = runCapturing(chains("--out", tmp.resolve("o2").toString(), "--checkpoint", ckpt.toString(), "--resume"));
        assertEquals(ExitCode.OK, r.code(), r.err());
        List<String> saved = listing(ckpt);
        String state = saved.stream().filter(n -> n.startsWith("state-")).findFirst().orElseThrow();
        long bytes = Files.size(ckpt.resolve(state));
        r = runCapturing(chains("--out", tmp.resolve("o3").toString(), "--checkpoint", ckpt.toString()));
        assertEquals(ExitCode.BAD_INPUT, r.code(), r.err());
        assertTrue(r.err().contains("--checkpoint '" + ckpt + "' holds an earlier run's checkpoint (" + state
                + "); pass --resume to continue it, or give a new or empty directory"), r.err());
        assertEquals(saved, listing(ckpt));
        assertEquals(bytes, Files.size(ckpt.resolve(state)));
        assertFalse(Files.exists(tmp.resolve("o3")));
    }

    /**
     * A refused --resume leaves the user's directory as it was, unmarked, so a later run still refuses it for the
     * files sparkmc did not write. The old code kept the marker the refused run wrote, and the next run took the
     * directory for sparkmc's and replaced the user's rounds/round-00002.parquet.
     */
    @Test
    void aRefusedResumeDoesNotMarkTheUsersDirectory() throws IOException {
        Path ustate = Files.createDirectories(tmp.resolve("ustate"));
        Files.writeString(ustate.resolve("state-00001.json"), "mine\n");
        String[] model = {"--model", "bimodal", "--param", "threshold=5", "--chains", "2", "--seed", "1"};
        Result r = runCapturing(chains(BadInputTest.append(model, "--out", tmp.resolve("o5").toString(),
                "--checkpoint", ustate.toString())));
        assertEquals(ExitCode.BAD_INPUT, r.code(), r.err());
        assertTrue(r.err().contains("pass --resume to continue it"), r.err());
        r = runCapturing(chains(BadInputTest.append(model, "--out", tmp.resolve("o6").toString(),
                "--checkpoint", ustate.toString(), "--resume")));
        assertEquals(ExitCode.BAD_INPUT, r.code(), r.err());
        assertTrue(r.err().contains("state-00001.json is corrupt"), r.err());
        assertEquals(List.of("state-00001.json"), listing(ustate), "the refused run wrote nothing there");

        Files.delete(ustate.resolve("state-00001.json"));
        Files.writeString(ustate.resolve("notes.txt"), "mine\n");
        Path round = Files.createDirectories(ustate.resolve("rounds")).resolve("round-00002.parquet");
        Files.writeString(round, "mydata\n");
        r = runCapturing(chains(BadInputTest.append(model, "--out", tmp.resolve("o7").toString(),
                "--checkpoint", ustate.toString())));
        assertEquals(ExitCode.BAD_INPUT, r.code(), r.err());
        assertTrue(r.err().contains("holds files sparkmc did not write (notes.txt)"), r.err());
        assertEquals("mydata\n", Files.readString(round));
        assertEquals(List.of("notes.txt", "rounds"), listing(ustate));
        assertFalse(Files.exists(tmp.resolve("o7")));
    }

    /**
     * A directory without the marker whose names are those of a checkpoint from before the marker (particles/,
     * rows/, …) but that holds no state is the user's: smc's first save had deleted the files in its particles/.
     */
    @Test
    void checkpointNamesWithoutAStateAreNotTakenForACheckpoint() throws IOException {
        Path ckpt = Files.createDirectories(tmp.resolve("work").resolve("particles"));
        Files.writeString(ckpt.resolve("obs.csv"), "mine");
        Path work = tmp.resolve("work");
        Result r = runCapturing(chains("--out", tmp.resolve("o").toString(), "--checkpoint", work.toString()));
        assertEquals(ExitCode.BAD_INPUT, r.code(), r.err());
        assertTrue(r.err().contains("--checkpoint '" + work + "' holds files but no checkpoint state"), r.err());
        assertEquals(List.of("particles"), listing(work));
        assertEquals("mine", Files.readString(ckpt.resolve("obs.csv")));
        assertFalse(Files.exists(tmp.resolve("o")));
    }

    /** The old code ran the whole job, then exited 2; with --overwrite it deleted the checkpoint. */
    @Test
    void aCheckpointInsideTheOutputIsRefusedAtTheStart() {
        Path out = tmp.resolve("o/nest");
        for (String[] paths : List.of(new String[] {out.resolve("ckpt").toString(), out.toString()},
                new String[] {out.toString(), out.resolve("sub").toString()})) {
            Result r = runCapturing(chains("--checkpoint", paths[0], "--out", paths[1]));
            assertEquals(ExitCode.BAD_INPUT, r.code(), r.err());
            assertTrue(r.err().contains("--checkpoint '" + paths[0] + "' and --out") && r.err().contains("overlap"),
                    r.err());
        }
        assertFalse(Files.exists(tmp.resolve("o")), "refused before any sampling: nothing created");
    }

    /**
     * --out, --checkpoint and --lineage-dir are refused before Spark starts (and before any claim) where they lie in
     * a directory the run reads (a directory input, a glob's directory) or hold an input. The old code ran smc 50
     * steps, saved a checkpoint among the observations and only then exited 2; committed smc's output inside its data
     * directory; and left lda's lineage and checkpoint directories inside its corpus.
     */
    @Test
    void noOutputOrWorkingDirectoryLiesAmongTheInputs() throws IOException {
        Path nd = Files.createDirectories(tmp.resolve("nd"));
        List<String> nile = Files.readAllLines(TestPaths.projectRoot().resolve("data/nile/nile.csv"));
        Files.write(nd.resolve("a.csv"), nile.subList(0, 51));
        Files.write(nd.resolve("b.csv"), Stream.concat(Stream.of(nile.get(0)), nile.subList(51, nile.size())
                .stream()).toList());
        String[] smc = {"smc", "--conf", TestPaths.conf("smc-nile.conf").toString(), "--particles", "2000",
            "--block-size", "500"};
        String[][] cases = {
            {"--checkpoint", nd.resolve("ck").toString(), "--checkpoint-every", "10", "--out", tmp.resolve("so1")
                .toString()},
            {"--lineage-dir", nd.toString(), "--lineage-every", "10", "--out", tmp.resolve("so4").toString()},
            {"--out", nd.resolve("res").toString()}};
        String[] expected = {"--checkpoint '" + nd.resolve("ck") + "' lies in --data '" + nd + "', a directory the run "
            + "reads; give --checkpoint a place outside the run's inputs", "--lineage-dir '" + nd + "' is --data '"
            + nd + "', a directory the run reads",
            "' lies in --data '" + nd + "', a directory the run reads; give --out"};
        for (int i = 0; i < cases.length; i++) {
            Result r = runCapturing(BadInputTest.append(BadInputTest.append(smc, "--data", nd.toString()), cases[i]));
            assertEquals(ExitCode.BAD_INPUT, r.code(), r.err());
            assertTrue(r.err().contains(expected[i]), r.err());
        }
        assertEquals(List.of("a.csv", "b.csv"), listing(nd));

        Path texts = Files.createDirectories(tmp.resolve("texts"));
        Files.writeString(texts.resolve("t.txt"), "river flow year\nriver dam flow\nyear dam river\n");
        String[] lda = {"lda", "--text", texts.toString(), "--min-df", "1", "--topics", "3", "--sweeps", "4",
            "--out", tmp.resolve("lo").toString()};
        Result r = runCapturing(BadInputTest.append(lda, "--lineage-every", "1", "--lineage-dir", texts.toString()));
        assertEquals(ExitCode.BAD_INPUT, r.code(), r.err());
        assertTrue(r.err().contains("--lineage-dir '" + texts + "' is --text '" + texts + "'"), r.err());
        r = runCapturing(BadInputTest.append(lda, "--checkpoint", texts.resolve("ck").toString()));
        assertEquals(ExitCode.BAD_INPUT, r.code(), r.err());
        assertTrue(r.err().contains("--checkpoint '" + texts.resolve("ck") + "' lies in --text"), r.err());
        String glob = texts + "/*.txt"; // a name in a glob's directory that the glob matches: a later run reads it
        r = runCapturing("lda", "--text", glob, "--min-df", "1", "--topics", "3", "--sweeps", "4", "--out",
                texts.resolve("res.txt").toString());
        assertEquals(ExitCode.BAD_INPUT, r.code(), r.err());
        assertTrue(r.err().contains("' lies in the directory of --text '" + glob + "' ("), r.err());
        assertEquals(List.of("t.txt"), listing(texts));

        // A file input lying in a working directory: chains' --data in its --checkpoint.
        Path ck = Files.createDirectories(tmp.resolve("ck"));
        Path data = Files.copy(TestPaths.projectRoot().resolve("data/eight_schools/eight_schools.json"),
                ck.resolve("eight_schools.json"));
        r = runCapturing(chains("--model", "eight_schools_noncentered", "--data", data.toString(), "--checkpoint",
                ck.toString(), "--out", tmp.resolve("co").toString()));
        assertEquals(ExitCode.BAD_INPUT, r.code(), r.err());
        assertTrue(r.err().contains("--data '" + data + "', which the run reads, lies in --checkpoint '" + ck + "'"),
                r.err());
        assertEquals(List.of("eight_schools.json"), listing(ck));
        for (String out : List.of("so1", "so4", "lo", "co")) {
            assertFalse(Files.exists(tmp.resolve(out)), out);
        }
    }

    /**
     * A run refused after its claim (a master Spark cannot use) removes the parents it created for its checkpoint
     * directory; the old code removed the directory alone and left n1/n2/.
     */
    @Test
    void aRefusedRunLeavesNoParentsOfItsCheckpoint() {
        Result r = runCapturing(chains("--checkpoint", tmp.resolve("n1/n2/ck").toString(), "--out",
                tmp.resolve("nn1/nn2/o").toString(), "--master", "local[0]"));
        assertEquals(ExitCode.BAD_INPUT, r.code(), r.err());
        assertTrue(r.err().contains("--master 'local[0]' is not a master Spark can use"), r.err());
        assertFalse(Files.exists(tmp.resolve("n1")));
        assertFalse(Files.exists(tmp.resolve("nn1")));
    }

    /**
     * A --lineage-dir run leaves no empty directory behind: Spark's setCheckpointDir made a <uuid> directory there
     * (and the directory itself, with its parents), and the run deleted only its checkpoints inside it.
     */
    @Test
    void aLineageDirectoryRunLeavesNoEmptyDirectories() throws IOException {
        Result r = runCapturing("smc", "--conf", TestPaths.conf("smc-nile.conf").toString(), "--particles", "2000",
                "--block-size", "500", "--lineage-dir", tmp.resolve("l1/l2/lin").toString(), "--lineage-every", "10",
                "--out", tmp.resolve("so").toString());
        assertEquals(ExitCode.OK, r.code(), r.err());
        assertFalse(Files.exists(tmp.resolve("l1")));
        Path kept = Files.createDirectories(tmp.resolve("lin"));
        Path kos = TestPaths.projectRoot().resolve("data/kos");
        r = runCapturing("lda", "--docword", kos.resolve("docword.kos.txt.gz").toString(), "--vocab",
                kos.resolve("vocab.kos.txt").toString(), "--topics", "3", "--sweeps", "4", "--eval-burn-in", "2",
                "--eval-samples", "2", "--lineage-every", "1", "--lineage-dir", kept.toString(), "--out",
                tmp.resolve("lo").toString());
        assertEquals(ExitCode.OK, r.code(), r.err());
        assertEquals(List.of(), listing(kept), "the user's directory stays, empty");
    }

    @Test
    void aReadOnlyCheckpointIsRefusedAtTheStart() {
        Result r = runCapturing(chains("--out", tmp.resolve("o").toString(), "--checkpoint", "/proc/sparkmc-ckpt"));
        assertEquals(ExitCode.BAD_INPUT, r.code(), r.err());
        assertTrue(r.err().contains("cannot write checkpoint directory '/proc/sparkmc-ckpt'"), r.err());
        assertFalse(Files.exists(tmp.resolve("o")));
    }

    /**
     * A disk that fills while the draws are written: exit 1 with one line saying so, no staging left, and an
     * earlier output replaced by --overwrite is intact.
     */
    @Test
    void aFullDiskLeavesNoStagingAndKeepsTheOldOutput() throws IOException {
        Path old = chainsOutput("o");
        List<String> before = listing(old);
        String summary = Files.readString(old.resolve("summary.json"));
        for (String[] args : List.of(new String[] {"--out", FaultyFileSystem.uri(tmp.resolve("new"))},
                new String[] {"--out", FaultyFileSystem.uri(old), "--overwrite"})) {
            FaultyFileSystem.freeBytes(2_000);
            Result r = runCapturing(chains(args));
            FaultyFileSystem.reset();
            assertEquals(ExitCode.FAILURE, r.code(), r.err());
            // The path comes from Spark's message, or, when the disk fills as a file is created, from --out.
            assertTrue(r.err().matches("(?s).*no space left on device while writing (faulty:\\S*|under --out "
                    + "'faulty:\\S*'); nothing was written there.*"), r.err());
            assertFalse(r.err().contains("\tat "), "one message, no stack trace: " + r.err());
            assertEquals(List.of("o"), listing(tmp), "no staging left");
            assertEquals(before, listing(old));
            assertEquals(summary, Files.readString(old.resolve("summary.json")));
        }
    }
}
