"""Sign-in with a password, timed: bcrypt at the server's cost (12) dominates. Prints the round trips' median and
worst, beside the sign-in page's own round trip (no bcrypt) measured in the same run as the reference."""
import http.cookiejar
import re
import statistics
import sys
import time
import urllib.parse
import urllib.request


def main(url, count):
    page_times, sign_in_times = [], []
    for _ in range(count):
        opener = urllib.request.build_opener(urllib.request.HTTPCookieProcessor(http.cookiejar.CookieJar()))
        start = time.perf_counter()
        page = opener.open(url + "/sign-in").read().decode()
        page_times.append((time.perf_counter() - start) * 1000)
        token = re.search(r'name="csrf" type="hidden" value="([0-9a-f]{64})"', page).group(1)
        form = urllib.parse.urlencode({"csrf": token, "email": "sam@example.org", "password": "opencarekit-demo", "next": "/"})
        start = time.perf_counter()
        response = opener.open(url + "/sign-in", form.encode())
        sign_in_times.append((time.perf_counter() - start) * 1000)
        assert "/sign-in" not in response.geturl(), "the demo caregiver could not sign in"
    print(f"Sign-in ({count} times)       median ms   worst ms")
    print(f"POST /sign-in (bcrypt)      {statistics.median(sign_in_times):9.1f}   {max(sign_in_times):8.1f}")
    print(f"GET /sign-in (reference)    {statistics.median(page_times):9.1f}   {max(page_times):8.1f}")


if __name__ == "__main__":
    main(sys.argv[1], int(sys.argv[2]))
