package dev.shuttle.docs;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;

/**
 * Every relative link in README.md and docs/*.md leads somewhere: to a file or directory inside the repository, and
 * to a heading of that page when it names an anchor. Links to other sites are not fetched.
 */
class DocLinksTest {

    @Test
    void everyRelativeLinkResolvesToAFileAndAnchorInTheRepository() {
        Path root = Docs.root().toAbsolutePath().normalize();
        List<String> broken = new ArrayList<>();
        int checked = 0;
        for (Path page : Docs.markdownFiles()) {
            String text = Docs.read(page);
            for (Markdown.Link link : Markdown.links(text)) {
                String target = link.target();
                if (target.matches("^[a-zA-Z][a-zA-Z0-9+.-]*:.*")) {   // https:, mailto:, ...
                    continue;
                }
                checked++;
                String where = root.relativize(page) + ":" + link.line() + ": " + target;
                int hash = target.indexOf('#');
                String file = URLDecoder.decode(hash < 0 ? target : target.substring(0, hash), StandardCharsets.UTF_8);
                String anchor = hash < 0 ? null : target.substring(hash + 1);
                Path resolved = file.isEmpty() ? page : page.getParent().resolve(file).toAbsolutePath().normalize();
                if (!resolved.startsWith(root)) {
                    broken.add(where + " (outside the repository)");
                } else if (!Files.exists(resolved)) {
                    broken.add(where + " (no such file)");
                } else if (anchor != null) {
                    if (!resolved.toString().endsWith(".md")) {
                        broken.add(where + " (anchor into a file that is not Markdown)");
                    } else if (!Markdown.anchors(Docs.read(resolved)).contains(anchor)) {
                        broken.add(where + " (no heading with that anchor)");
                    }
                }
            }
        }
        assertTrue(checked > 0, "no relative links found: is the parser broken?");
        assertEquals(List.of(), broken, "broken links");
    }

    @Test
    void anchorsFollowGitHubsRule() {
        String page = "# Spinning and parking\n## `HttpServer` /sleep: at 50 %, held alone\n```\n# not a heading\n```\n"
                + "## Spinning and parking\n";
        assertEquals(Set.of("spinning-and-parking", "httpserver-sleep-at-50--held-alone", "spinning-and-parking-1"),
                Markdown.anchors(page));
    }

    @Test
    void linksInCodeAreNotLinks() {
        String page = "[a](one.md) `[b](two.md)`\n```\n[c](three.md)\n```\n![d](four.svg \"title\")\n";
        assertEquals(List.of(new Markdown.Link(1, "one.md"), new Markdown.Link(5, "four.svg")), Markdown.links(page));
    }
}
