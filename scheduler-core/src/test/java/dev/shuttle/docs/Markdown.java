package dev.shuttle.docs;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The little of GitHub-flavoured Markdown the doc checks need: the links of a page outside code, the anchors its
 * headings get (GitHub's rule: lower case, punctuation dropped, spaces to hyphens, repeats numbered), and the fenced
 * code blocks under a heading.
 */
final class Markdown {
    private static final Pattern FENCE = Pattern.compile("^\\s*(```|~~~)");
    private static final Pattern HEADING = Pattern.compile("^(#{1,6})\\s+(.*?)\\s*#*\\s*$");
    private static final Pattern INLINE_CODE = Pattern.compile("`[^`]*`");
    /** {@code [text](target)} or {@code ![alt](target)}, target without spaces, an optional "title" after it. */
    private static final Pattern LINK = Pattern.compile("\\]\\(\\s*<?([^)\\s>]+)>?(?:\\s+\"[^\"]*\")?\\s*\\)");
    private static final Pattern HTML_ANCHOR = Pattern.compile("<a\\s+(?:name|id)=\"([^\"]+)\"");

    private Markdown() {
    }

    /** One link: the line it is on (1-based) and its target as written. */
    record Link(int line, String target) {
    }

    /** One fenced code block: its info string ("java", or empty) and its text. */
    record CodeBlock(String info, String text) {
    }

    /** The links of {@code text} outside fenced blocks and inline code. */
    static List<Link> links(String text) {
        List<Link> links = new ArrayList<>();
        String[] lines = text.split("\n", -1);
        boolean fenced = false;
        for (int i = 0; i < lines.length; i++) {
            if (FENCE.matcher(lines[i]).find()) {
                fenced = !fenced;
                continue;
            }
            if (fenced) {
                continue;
            }
            Matcher m = LINK.matcher(INLINE_CODE.matcher(lines[i]).replaceAll(""));
            while (m.find()) {
                links.add(new Link(i + 1, m.group(1)));
            }
        }
        return links;
    }

    /** The anchors GitHub gives the headings of {@code text}, plus explicit {@code <a name|id="...">} anchors. */
    static Set<String> anchors(String text) {
        Set<String> anchors = new HashSet<>();
        Map<String, Integer> seen = new HashMap<>();
        boolean fenced = false;
        for (String line : text.split("\n", -1)) {
            if (FENCE.matcher(line).find()) {
                fenced = !fenced;
                continue;
            }
            if (fenced) {
                continue;
            }
            Matcher h = HEADING.matcher(line);
            if (h.matches()) {
                String slug = slug(h.group(2));
                int n = seen.merge(slug, 1, Integer::sum) - 1;
                anchors.add(n == 0 ? slug : slug + "-" + n);
            }
            Matcher a = HTML_ANCHOR.matcher(line);
            while (a.find()) {
                anchors.add(a.group(1));
            }
        }
        return anchors;
    }

    /** GitHub's heading anchor: lower case, everything but letters, digits, spaces, '-' and '_' dropped, spaces to '-'. */
    static String slug(String heading) {
        String plain = heading.replaceAll("\\[([^\\]]*)\\]\\([^)]*\\)", "$1"); // a link in a heading keeps its text
        StringBuilder slug = new StringBuilder();
        plain.toLowerCase(Locale.ROOT).codePoints().forEach(c -> {
            if (Character.isLetterOrDigit(c) || c == '-' || c == '_') {
                slug.appendCodePoint(c);
            } else if (c == ' ') {
                slug.append('-');
            }
        });
        return slug.toString();
    }

    /** The fenced code blocks after the heading {@code heading} (its text, exactly) and before the next heading. */
    static List<CodeBlock> codeBlocksUnder(String text, String heading) {
        List<CodeBlock> blocks = new ArrayList<>();
        boolean inSection = false;
        StringBuilder block = null;
        String info = "";
        for (String line : text.split("\n", -1)) {
            Matcher fence = FENCE.matcher(line);
            if (block != null) {
                if (fence.find()) {
                    blocks.add(new CodeBlock(info, block.toString()));
                    block = null;
                } else {
                    block.append(line).append('\n');
                }
                continue;
            }
            Matcher h = HEADING.matcher(line);
            if (h.matches()) {
                inSection = h.group(2).equals(heading);
                continue;
            }
            if (inSection && fence.find()) {
                info = line.trim().substring(3).trim();
                block = new StringBuilder();
            }
        }
        return blocks;
    }
}
