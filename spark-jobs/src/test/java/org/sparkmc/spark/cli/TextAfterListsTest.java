package org.sparkmc.spark.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.typesafe.config.ConfigFactory;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;
import org.junit.jupiter.params.provider.ValueSource;
import org.sparkmc.core.InvalidInputException;

/**
 * Two lists side by side on one line, {@code [[1, 1] [0, 1]]}, which HOCON joins into {@code [[1, 1, 0, 1]]}, and a
 * word after a list or an object on its line, {@code [1] x}, which HOCON drops, are refused in a config file (and the
 * files it includes) and in a {@code --param} value; lists on separate lines or with a comma between them, and the
 * same characters in a quoted string or a comment, are read as before.
 */
class TextAfterListsTest {
    private static final List<List<Integer>> ROWS = List.of(List.of(1, 1), List.of(0, 1));

    @TempDir
    Path tmp;

    /** What the check is for: HOCON joins lists side by side on one line, and keeps lines apart as elements. */
    @Test
    void hoconJoinsListsSideBySideOnOneLineOnly() {
        assertEquals(List.of(List.of(1, 1, 0, 1)), ConfigFactory.parseString("v = [[1, 1] [0, 1]]").getAnyRef("v"));
        assertEquals(ROWS, ConfigFactory.parseString("v = [\n  [1, 1]\n  [0, 1]\n]").getAnyRef("v"));
        assertEquals(ROWS, ConfigFactory.parseString("v = [[1, 1], [0, 1]]").getAnyRef("v"));
    }

    /** Lists side by side, found at the first list's closing bracket; a word after a list, found at the word. */
    static Stream<Arguments> misreadings() {
        return Stream.of(
                Arguments.of("F = [[1, 1] [0, 1]]", sideBySide(1, 11)),
                Arguments.of("a = 1\nF = [[1][0]]", sideBySide(2, 8)),
                Arguments.of("F = [1, 1]\t[0, 1]", sideBySide(1, 10)),
                Arguments.of("F = [\n  [1]\n  ]\u00a0[[2]]", sideBySide(3, 3)),
                // columns of characters, not of UTF-16 units
                Arguments.of("s = \"\ud835\udf03\" # ] [\nt = [\"\ud835\udf03\"] [2]", sideBySide(2, 9)),
                Arguments.of("s = \"\"\"a\"\"\"\", F = [1] [2]", sideBySide(1, 21)),
                Arguments.of("\ufeffF = [] []", sideBySide(1, 6)),
                Arguments.of("F = [1] x [2]", wordAfter(1, 9)),
                Arguments.of("F = [1]x", wordAfter(1, 8)),
                Arguments.of("a = 1\nF = {a: 1}\tx.y # note", wordAfter(2, 12)),
                Arguments.of("F = [[1] \u00a0x]", wordAfter(1, 11)),
                Arguments.of("F = [1] 2", wordAfter(1, 9)), // HOCON refuses this one itself
                Arguments.of("s = \"] x\", F = [1] -", wordAfter(1, 20)),
                Arguments.of("o = {a: ${x}} y", wordAfter(1, 15)),
                Arguments.of("a = ${x\nF = [1] y }", wordAfter(2, 9))); // a substitution not closed on its line
    }

    @ParameterizedTest
    @MethodSource("misreadings")
    void findsWhereHoconWouldMisreadTheText(String text, TextAfterLists.Finding expected) {
        assertEquals(expected, TextAfterLists.find(text), text);
    }

    private static TextAfterLists.Finding sideBySide(int line, int column) {
        return new TextAfterLists.Finding(new TextAfterLists.Position(line, column), TextAfterLists.SIDE_BY_SIDE);
    }

    private static TextAfterLists.Finding wordAfter(int line, int column) {
        return new TextAfterLists.Finding(new TextAfterLists.Position(line, column), TextAfterLists.WORD_AFTER);
    }

    /** What the second check is for: Typesafe Config drops an unquoted word after a list or an object. */
    @Test
    void hoconDropsAWordAfterAListOrAnObject() {
        assertEquals(List.of(1, 2), ConfigFactory.parseString("v = [1] x [2]").getAnyRef("v"));
        assertEquals(List.of(List.of(1)), ConfigFactory.parseString("v = [[1] x]").getAnyRef("v"));
        assertEquals(Map.of("a", 1), ConfigFactory.parseString("v = {a: 1} x").getAnyRef("v"));
    }

    @ParameterizedTest
    @ValueSource(strings = {"F = [1]\nx = 2", "F = [1], x = 2", "F = [1] # x", "F = [1] // x", "F = [1 x]",
        "F = [ab cd]", "s = \"[1] x\"", "F = {a: 1} {b: 2}", "F = [1] ${?x}", "F = [1]\r\nx = 2",
        "o { F = [1] }", "F = [[1], [2]]", "out = ${dir}/out", "a = ${?HOME}/x", "o = ${base} -Xmx4g",
        "g = ${name} is here", "a = ${x}.y"})
    void findsNoWordWhereHoconKeepsIt(String text) {
        assertNull(TextAfterLists.find(text), text);
    }

    @Test
    void aConfigFileOrParamWithAWordAfterAListIsRefusedWithWhereItIs() throws IOException {
        Path conf = Files.writeString(tmp.resolve("run.conf"), "chains = 4\nmodel-params {\n  F = [1] x [2]\n}\n");
        InvalidInputException e = assertThrows(InvalidInputException.class, () -> ConfigFile.load(conf.toString()));
        assertEquals(conf + ":3:11: " + TextAfterLists.WORD_AFTER, e.getMessage());
        e = assertThrows(InvalidInputException.class, () -> new Job().modelParams(Map.of("F", "[1] x")));
        assertEquals("--param F=[1] x: " + TextAfterLists.WORD_AFTER, e.getMessage());
    }

    @ParameterizedTest
    @ValueSource(strings = {"F = [\n  [1, 1]\n  [0, 1]\n]", "F = [[1, 1]\n[0, 1]]", "F = [[1, 1]\r\n[0, 1]]",
        "F = [[1, 1], [0, 1]]", "F = [[1, 1] # a comment\n  [0, 1]]", "F = [[1, 1] // a comment\n  [0, 1]]",
        "s = \"] [\"", "s = \"\\\"] [\"", "s = \"\"\"a] [b\"\"\"", "# ] [\nx = 1",
        "x = 1 // ] ["})
    void findsNothingWhereHoconKeepsTheListsApart(String text) {
        assertNull(TextAfterLists.find(text), text);
    }

    @Test
    void aConfigFileWithListsSideBySideIsRefusedWithFileLineAndColumn() throws IOException {
        Path conf = Files.writeString(tmp.resolve("run.conf"), "chains = 4\nmodel-params {\n"
                + "  F = [[1, 1] [0, 1]]\n}\n");
        InvalidInputException e = assertThrows(InvalidInputException.class, () -> ConfigFile.load(conf.toString()));
        assertEquals(conf + ":3:13: " + TextAfterLists.SIDE_BY_SIDE, e.getMessage());
        assertTrue(TextAfterLists.SIDE_BY_SIDE.startsWith("two lists side by side, \"] [\", are joined into one list "
                + "by HOCON; put a comma between them if they are elements of a list, or write them as one list"));
    }

    @Test
    void anIncludedFileWithListsSideBySideIsRefusedWithItsName() throws IOException {
        Path conf = Files.writeString(tmp.resolve("run.conf"), "include \"params.conf\"\nchains = 4\n");
        Path params = Files.writeString(tmp.resolve("params.conf"), "model-params { F = [1, 1] [0, 1] }\n");
        InvalidInputException e = assertThrows(InvalidInputException.class, () -> ConfigFile.load(conf.toString()));
        assertEquals(params + ":1:25: " + TextAfterLists.SIDE_BY_SIDE, e.getMessage());
    }

    @ParameterizedTest
    @ValueSource(strings = {"F = [\n    [1, 1]\n    [0, 1]\n  ]", "F = [[1, 1], [0, 1]]",
        "F = [[1, 1], [0, 1]] # not [[1, 1] [0, 1]]\n  note = \"] [\""})
    void aConfigFileWithListsApartIsRead(String params) throws IOException {
        Path conf = Files.writeString(tmp.resolve("run.conf"), "chains = 4\nmodel-params {\n  " + params + "\n}\n");
        assertEquals(ROWS, ConfigFile.load(conf.toString()).block(JobCommand.MODEL_PARAMS).get("F"));
    }

    @Test
    void aParamWithListsSideBySideIsRefusedNamingIt() {
        InvalidInputException e = assertThrows(InvalidInputException.class,
                () -> new Job().modelParams(Map.of("F", "[[1, 1] [0, 1]]")));
        assertEquals("--param F=[[1, 1] [0, 1]]: " + TextAfterLists.SIDE_BY_SIDE, e.getMessage());
    }

    /** HOCON reads a second key after the list, and the option's list was all that was kept of it. */
    @ParameterizedTest
    @ValueSource(strings = {"[1], G=2", "[1]\nG=2", "[1], v=[3]"})
    void aParamWithAnotherKeyAfterItsListIsRefused(String value) {
        InvalidInputException e = assertThrows(InvalidInputException.class,
                () -> new Job().modelParams(Map.of("F", value)));
        assertEquals("--param F=" + value + ": a value in brackets must be a list as in the config file, e.g. [1, 2] "
                + "or [[1, 0], [0, 1]], and nothing after it", e.getMessage());
    }

    @ParameterizedTest
    @ValueSource(strings = {"[[1, 1], [0, 1]]", "[[1, 1]\n[0, 1]]"})
    void aParamWithListsApartIsRead(String value) {
        assertEquals(ROWS, new Job().modelParams(Map.of("F", value)).get("F"));
    }

    /** A job command with nothing to run, for its model parameters. */
    private static final class Job extends JobCommand {
        @Override
        public Integer call() {
            return ExitCode.OK;
        }
    }
}
