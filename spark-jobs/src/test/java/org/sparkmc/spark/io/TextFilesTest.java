package org.sparkmc.spark.io;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.util.Map;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.sparkmc.core.InvalidInputException;

/** The shared text reading and user paths, on real local files through Hadoop's FileSystem. */
class TextFilesTest {
    @TempDir
    java.nio.file.Path tmp;

    /**
     * A compressed file is opened once, and a file system that fails while it is read (a lost connection) is a
     * {@link StorageFailure}, exit 1 for a scheduler to retry, not a "not a complete gzip file" refusal (exit 2):
     * only data that break off are that; a file that is not there is still the caller's to name.
     */
    @Test
    void aFileSystemFailureWhileReadingIsNotTheFilesFault() throws IOException {
        StringBuilder text = new StringBuilder();
        for (int i = 0; i < 20_000; i++) {
            text.append("line ").append(i).append('\n');
        }
        java.nio.file.Path whole = tmp.resolve("t.txt.gz");
        try (var out = new java.util.zip.GZIPOutputStream(Files.newOutputStream(whole))) {
            out.write(text.toString().getBytes(StandardCharsets.UTF_8));
        }
        byte[] bytes = Files.readAllBytes(whole);
        java.nio.file.Path cut = Files.write(tmp.resolve("cut.txt.gz"), java.util.Arrays.copyOf(bytes,
                bytes.length / 2));
        Configuration conf = new Configuration();
        try {
            try (var in = new java.io.BufferedReader(TextFiles.reader(new Path(FaultyFileSystem.uri(whole)), conf))) {
                assertEquals(20_000, in.lines().count());
            }
            assertEquals(1, FaultyFileSystem.opens(), "opens of a gzip file");
            assertThrows(java.io.FileNotFoundException.class, () -> readAll(tmp.resolve("none.txt"), conf)); // named
            InvalidInputException broken = assertThrows(InvalidInputException.class, () -> readAll(cut, conf));
            assertTrue(broken.getMessage().contains("not a complete gzip file"), broken.getMessage());
            FaultyFileSystem.failReads(name -> name.equals("t.txt.gz"));
            StorageFailure lost = assertThrows(StorageFailure.class, () -> readAll(whole, conf));
            assertTrue(lost.getMessage().contains("the file system failed to read it"), lost.getMessage());
        } finally {
            FaultyFileSystem.reset();
        }
    }

    /** Bytes that fail their checksum are the input's fault (a corrupt copy), not a failing file system's. */
    @Test
    void aChecksumFailureIsTheInputsNotTheStoragesFault() throws IOException {
        Configuration conf = new Configuration();
        Path file = new Path(tmp.resolve("sums.txt").toUri());
        FileSystem fs = file.getFileSystem(conf); // the local file system with checksum files
        try (var out = fs.create(file)) {
            out.write("one\ntwo\n".getBytes(StandardCharsets.UTF_8));
        }
        Files.writeString(tmp.resolve("sums.txt"), "one\nTWO\n"); // changed behind its .crc
        IOException e = assertThrows(IOException.class, () -> {
            try (var in = new java.io.BufferedReader(TextFiles.reader(file, conf))) {
                in.lines().count();
            } catch (java.io.UncheckedIOException wrapped) { // BufferedReader.lines' wrapping, not a StorageFailure
                if (wrapped instanceof StorageFailure) {
                    throw wrapped;
                }
                throw wrapped.getCause();
            }
        });
        assertTrue(e instanceof org.apache.hadoop.fs.ChecksumException, e.toString());
    }

    /**
     * Lines end as {@link java.io.BufferedReader#readLine} ends them (\n, \r\n, or \r alone), so a byte that is not
     * UTF-8 is named with the line an editor shows, and a file of \r-ended lines is not read whole as one line.
     */
    @Test
    void aByteThatIsNotUtf8IsNamedWithItsLineWhateverTheLineEnds() throws IOException {
        Configuration conf = new Configuration();
        for (String end : new String[] {"\n", "\r\n", "\r"}) {
            java.nio.file.Path file = Files.write(tmp.resolve("ends.txt"),
                    ("one" + end + end + "tw\u00e9" + end).getBytes(StandardCharsets.ISO_8859_1));
            InvalidInputException e = assertThrows(InvalidInputException.class, () -> readLocal(file, conf));
            assertTrue(e.getMessage().contains("ends.txt line 3 column 3: byte 0xE9 (byte 3 of the line) is not UTF-8"),
                    e.getMessage());
            Files.writeString(file, "one" + end + end + "two\uFFFD" + end); // the character itself is UTF-8
            assertEquals(3, readLocal(file, conf), "lines of " + end.replace("\r", "\\r").replace("\n", "\\n"));
        }
    }

    /** A UTF-16 file is named as UTF-16: the Latin-1 conversion the general message advises gave text full of NULs. */
    @Test
    void aUtf16FileIsNamedAsUtf16() throws IOException {
        java.nio.file.Path file = Files.write(tmp.resolve("utf16.txt"),
                ("\uFEFFone two\n").getBytes(StandardCharsets.UTF_16LE));
        InvalidInputException e = assertThrows(InvalidInputException.class, () -> readLocal(file, new Configuration()));
        assertTrue(e.getMessage().contains("utf16.txt: the file is UTF-16 (it starts with UTF-16's byte-order mark); "
                + "sparkmc reads text as UTF-8: convert the file (e.g. iconv -f utf-16 -t utf-8)"), e.getMessage());
    }

    /** {@link #readAll} on the local file system, so that {@link FaultyFileSystem}'s count of opens is not moved. */
    private static long readLocal(java.nio.file.Path file, Configuration conf) throws IOException {
        try (var in = new java.io.BufferedReader(TextFiles.reader(new Path(file.toUri()), conf))) {
            return in.lines().count();
        }
    }

    private static long readAll(java.nio.file.Path file, Configuration conf) throws IOException {
        try (var in = new java.io.BufferedReader(TextFiles.reader(new Path(FaultyFileSystem.uri(file)), conf))) {
            return in.lines().count();
        }
    }

    @Test
    void modelDataWithAByteOrderMarkInADirectoryWithAColonIsRead() throws IOException {
        java.nio.file.Path dir = Files.createDirectories(tmp.resolve("x:y"));
        java.nio.file.Path json = dir.resolve("data.json");
        byte[] text = "{\"J\": 2, \"y\": [1.5, 2]}\n".getBytes(StandardCharsets.UTF_8);
        byte[] withBom = new byte[text.length + 3];
        withBom[0] = (byte) 0xEF;
        withBom[1] = (byte) 0xBB;
        withBom[2] = (byte) 0xBF;
        System.arraycopy(text, 0, withBom, 3, text.length);
        Files.write(json, withBom);
        Map<String, Object> data = ModelDataReader.read(json.toString(), new Configuration());
        assertEquals(2, ((Number) data.get("J")).intValue());
    }

    @Test
    void modelDataNotUtf8NamesLineAndColumn() throws IOException {
        java.nio.file.Path json = tmp.resolve("data.json");
        Files.write(json, new byte[] {'{', '\n', '"', 'n', (byte) 0xFF, '"', ':', '1', '}', '\n'});
        InvalidInputException e = assertThrows(InvalidInputException.class,
                () -> ModelDataReader.read(json.toString(), new Configuration()));
        assertTrue(e.getMessage().contains("data.json line 2 column 3: byte 0xFF (byte 3 of the line) is not UTF-8"),
                e.getMessage());
    }

    /**
     * Model data are read as JSON, whose parser refuses two lists side by side (HOCON would join them into one, which
     * the config file and --param refuse themselves): a matrix with a comma missing is not read as another matrix.
     */
    @Test
    void modelDataWithListsSideBySideAreRefused() throws IOException {
        java.nio.file.Path json = Files.writeString(tmp.resolve("data.json"), "{\"X\": [[1, 1] [0, 1]]}\n");
        InvalidInputException e = assertThrows(InvalidInputException.class,
                () -> ModelDataReader.read(json.toString(), new Configuration()));
        assertTrue(e.getMessage().startsWith("model data file is not a valid JSON object: " + json + ": 1: ")
                && e.getMessage().contains("had a comma"), e.getMessage());
    }

    @Test
    void overwriteChecksAnInputInADirectoryWithAColon() throws IOException {
        java.nio.file.Path dir = Files.createDirectories(tmp.resolve("x:y"));
        String data = Files.writeString(dir.resolve("data.json"), "{}").toString();
        Configuration conf = new Configuration();
        FileSystem local = FileSystem.getLocal(conf);
        RunPaths paths = RunPaths.none().input("--data", data);
        paths.checkNoInputWithin(local.makeQualified(new Path(tmp.resolve("out").toUri())), conf);
        InvalidInputException e = assertThrows(InvalidInputException.class,
                () -> paths.checkNoInputWithin(local.makeQualified(UserPaths.path("--out", dir.toString())), conf));
        assertTrue(e.getMessage().startsWith("--overwrite would delete the run's own input: --data '" + data + "'"),
                e.getMessage());
    }

    @Test
    void relativePathWithAColonInItsFirstNameIsAPathNotAScheme() throws IOException {
        // Hadoop alone reads 'a:b' as a scheme and fails with "Relative path in absolute URI".
        assertThrows(IllegalArgumentException.class, () -> new Path("a:b/o"));
        Path path = UserPaths.path("--out", "a:b/o");
        Path qualified = FileSystem.getLocal(new Configuration()).makeQualified(path);
        assertEquals(new Path(new java.io.File("a:b/o").getAbsoluteFile().toURI()).toUri().getPath(),
                qualified.toUri().getPath());
        assertEquals("hdfs", UserPaths.path("--out", "hdfs://namenode:8020/runs/a:b").toUri().getScheme());
        InvalidInputException bad = assertThrows(InvalidInputException.class,
                () -> UserPaths.path("--out", ""));
        assertTrue(bad.getMessage().startsWith("--out '' is not a usable path"), bad.getMessage());
    }
}
